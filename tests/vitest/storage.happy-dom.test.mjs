// @vitest-environment happy-dom
import { storageCases } from "./storage-cases.mjs";

storageCases();
