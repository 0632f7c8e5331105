// @vitest-environment jsdom
import { storageCases } from "./storage_cases.mjs";

storageCases();
