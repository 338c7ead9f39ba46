package file

// Syncs returns how many fsyncs of the log Sync has done.
func Syncs(b *Backend) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.syncs
}
