package query

// heapSort sorts n elements in place given less and swap, in O(n log n) at worst, not
// stably. The planner's two sorts use it rather than package sort or slices: either links
// its own pdqsort (sort.Slice also reflect's swapper) into the wasm builds, for sorts of
// index candidates and key ranges that are rarely large (BenchmarkSortKeys compares the
// two).
func heapSort(n int, less func(i, j int) bool, swap func(i, j int)) {
	down := func(root, hi int) {
		for {
			child := 2*root + 1
			if child >= hi {
				return
			}
			if child+1 < hi && less(child, child+1) {
				child++
			}
			if !less(root, child) {
				return
			}
			swap(root, child)
			root = child
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		down(i, n)
	}
	for i := n - 1; i > 0; i-- {
		swap(0, i)
		down(0, i)
	}
}
