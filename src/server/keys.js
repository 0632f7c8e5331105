// A conversation's key among the runs, queues and the run log: its owner and id together.

/** @param {string} owner @param {string} id */
export const keyOf = (owner, id) => JSON.stringify([owner, id]);
