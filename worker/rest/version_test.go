package rest

import (
	"slices"
	"testing"
)

// TestServiceVersions_Sorted holds the list checkVersion searches by halves to its order.
func TestServiceVersions_Sorted(t *testing.T) {
	if !slices.IsSorted(serviceVersions) {
		t.Fatal("serviceVersions is not in order")
	}
}
