// Differences between the package and the baseline (SPEC.md and the README's decisions) that the
// fuzz has found and that are reported but not fixed yet. A run counts them apart and does not
// fail on them (unless --strict); it says when one was not seen, so that a fixed one is removed
// from this list. `matches` gets the difference: its kind, its detail and the action.
export const KNOWN = [];
