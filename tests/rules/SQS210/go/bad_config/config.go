package main

import "time"

// How often the heartbeat extends a message, and by how much.
const (
	heartbeatEvery    = 40 * time.Second
	visibilitySeconds = 30
)
