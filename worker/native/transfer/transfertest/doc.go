// Package transfertest holds what the tests of the transfer packages share: entities
// holding every EDM type at its edge values, and comparisons that tell exactly what
// differs.
package transfertest
