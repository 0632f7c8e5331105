// Jest runs ES module packages as they are: no transform, Node's --experimental-vm-modules
// (see the "test" script), jsdom for React with the web streams a streamed response needs.
export default {
  testEnvironment: "./jsdom-with-web-streams.js",
  transform: {},
  testMatch: ["**/*.test.mjs"],
};
