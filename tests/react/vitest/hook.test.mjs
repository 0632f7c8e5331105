// useAgentSession in Vitest with jsdom and React 19, against a scripted endpoint (../scenarios.mjs).
import { test } from "vitest";
import { registerScenarios } from "./scenarios.mjs";

registerScenarios(test);
