// useAgentSession in Jest 30 with jsdom and React 18, against a scripted endpoint (../scenarios.mjs).
import { test } from "@jest/globals";
import { registerScenarios } from "./scenarios.mjs";

registerScenarios(test);
