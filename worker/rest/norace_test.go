//go:build !race

package rest_test

// raceEnabled is set under the race detector, which drops pooled values at random.
const raceEnabled = false
