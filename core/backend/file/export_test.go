package file

import (
	"io"
	"os"
)

// Syncs returns how many fsyncs of the log Sync has done.
func Syncs(b *Backend) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.syncs
}

// Frame is one frame of a log, as tests see it.
type Frame struct {
	Offset int64
	Size   int64 // header included
	Mark   bool
}

// LogFrames lists the intact frames at the start of the log at path.
func LogFrames(path string) ([]Frame, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var frames []Frame
	fr := newFrameReader(f, st.Size())
	for {
		at := fr.off
		payload, problem, err := fr.next()
		if err == io.EOF || problem != "" {
			return frames, nil
		}
		if err != nil {
			return nil, err
		}
		_, mark := markOf(payload)
		frames = append(frames, Frame{Offset: at, Size: fr.off - at, Mark: mark})
	}
}

// NoReservation makes b write without reserving space ahead, as on a file system that
// cannot.
func NoReservation(b *Backend) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.space.unsupported = true
}
