//go:build race

package native

// raceEnabled is set under the race detector, whose memory overhead makes an RSS bound
// meaningless.
const raceEnabled = true
