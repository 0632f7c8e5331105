// @vitest-environment happy-dom
import { storageCases } from "./storage_cases.mjs";

storageCases();
