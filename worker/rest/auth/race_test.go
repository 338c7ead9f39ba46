//go:build race

package auth

// raceEnabled is set under the race detector, which drops pooled values at random.
const raceEnabled = true
