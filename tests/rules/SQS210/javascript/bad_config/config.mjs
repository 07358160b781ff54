// How often the heartbeat extends a message, and by how much.
export const HEARTBEAT_MS = 40 * 1000;
export const VISIBILITY_SECONDS = 30;
