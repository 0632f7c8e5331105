// Several instances on one Redis: the run log every instance reads and the control channel by
// which a stop reaches the instance holding the run.

export { createRedisRunLog } from "./run-log.js";
export { createRedisControl } from "./control.js";
export { createRedisLeases } from "./lease.js";
