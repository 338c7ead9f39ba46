//go:build !race

package main

// raceEnabled is set under the race detector, whose memory overhead makes an RSS bound
// meaningless.
const raceEnabled = false
