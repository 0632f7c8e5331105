// @vitest-environment jsdom
import { storageCases } from "./storage-cases.mjs";

storageCases();
