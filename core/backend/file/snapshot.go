package file

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// A snapshot file is snapMagic, then one frame per command of the store's snapshot
// (buntdb's Save format: RESP arrays, each starting with '*'), framed as log records are
// (length, CRC-32C, payload), then an end frame: endTag and the uint64 count of commands.
// Every command is checked as it is read, a snapshot cut short lacks its end frame, and
// damage costs Salvage only the commands it touches. A file that starts with "*" and a
// digit is a snapshot from before the frames, read unchecked.

const (
	snapMagic = "#tabletop snapshot 2\n"
	endTag    = 'e'
	endFrame  = 1 + 8
)

// snapshotWriter frames what is written to it, a stream of RESP commands, a command a
// frame.
type snapshotWriter struct {
	w        *bufio.Writer
	buf      []byte // the start of a command not yet whole
	commands uint64
}

func newSnapshotWriter(w io.Writer) (*snapshotWriter, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	_, err := bw.WriteString(snapMagic)
	return &snapshotWriter{w: bw}, err
}

func (s *snapshotWriter) Write(p []byte) (int, error) {
	s.buf = append(s.buf, p...)
	start := 0
	for {
		n, err := commandLen(s.buf[start:])
		if err != nil {
			return 0, fmt.Errorf("frame snapshot: %w", err)
		}
		if n == 0 {
			break
		}
		if err := s.frame(s.buf[start : start+n]); err != nil {
			return 0, err
		}
		start += n
	}
	s.buf = s.buf[:copy(s.buf, s.buf[start:])]
	return len(p), nil
}

// frame writes one command's frame.
func (s *snapshotWriter) frame(cmd []byte) error {
	var hdr [frameHeader]byte
	binary.LittleEndian.PutUint32(hdr[:4], uint32(len(cmd)))
	binary.LittleEndian.PutUint32(hdr[4:], checksum(cmd))
	s.w.Write(hdr[:])
	_, err := s.w.Write(cmd)
	s.commands++
	return err
}

// Close writes the end frame and flushes; it does not close the file.
func (s *snapshotWriter) Close() error {
	if len(s.buf) > 0 {
		return errors.New("frame snapshot: the snapshot ends inside a command")
	}
	end := binary.LittleEndian.AppendUint64([]byte{endTag}, s.commands)
	if _, err := s.w.Write(appendFrame(nil, end)); err != nil {
		return err
	}
	return s.w.Flush()
}

// unframed reports whether a snapshot file starting with head is from before frames: a
// RESP stream, whose first line is "*" and a count.
func unframed(head []byte) bool {
	return len(head) >= 2 && head[0] == '*' && head[1] >= '0' && head[1] <= '9'
}

// snapshotReader reads a snapshot file's commands back, checking every frame: a bad or
// missing frame is a *DamageError.
type snapshotReader struct {
	path     string
	fr       *frameReader
	cur      []byte
	commands uint64
	done     bool
}

// openSnapshot returns a reader of the snapshot's content in f, a file of size bytes.
func openSnapshot(path string, f *os.File, size int64) (io.Reader, error) {
	head := make([]byte, min(size, int64(len(snapMagic))))
	if _, err := f.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	if size == 0 || unframed(head) {
		return bufio.NewReaderSize(f, 1<<20), nil // the format before frames
	}
	if string(head) != snapMagic {
		return nil, &DamageError{Path: path, Size: size, Problem: "not a snapshot (its first bytes are wrong)", Intact: -1}
	}
	fr := newFrameReader(f, size)
	fr.skip(int64(len(snapMagic)))
	return &snapshotReader{path: path, fr: fr}, nil
}

func (s *snapshotReader) Read(p []byte) (int, error) {
	for len(s.cur) == 0 {
		if s.done {
			return 0, io.EOF
		}
		if err := s.nextFrame(); err != nil {
			return 0, err
		}
	}
	n := copy(p, s.cur)
	s.cur = s.cur[n:]
	return n, nil
}

// nextFrame reads the next command into cur, or checks the end frame and sets done.
func (s *snapshotReader) nextFrame() error {
	at := s.fr.off
	payload, problem, err := s.fr.next()
	switch {
	case errors.Is(err, io.EOF):
		problem = "the snapshot ends without its end record (cut short)"
	case err != nil:
		return fmt.Errorf("read snapshot: %w", err)
	case problem == "":
		problem = s.take(payload)
	}
	if problem != "" {
		return &DamageError{Path: s.path, Offset: at, Problem: problem, Size: s.fr.size, Intact: -1}
	}
	return nil
}

// take makes an intact frame's command the content to read next, or checks the end
// frame; it returns what is wrong with the frame, if anything.
func (s *snapshotReader) take(payload []byte) (problem string) {
	switch {
	case payload[0] == '*':
		s.cur = payload
		s.commands++
	case payload[0] != endTag || len(payload) != endFrame:
		return "a record that is neither a command nor the end"
	case binary.LittleEndian.Uint64(payload[1:]) != s.commands:
		return "the end record counts other commands than the snapshot holds"
	case s.fr.off != s.fr.size:
		return "bytes follow the end record"
	default:
		s.done = true
	}
	return ""
}

// commandLen returns the length of the RESP command (an array of bulk strings) at the
// start of b, 0 if b holds only part of one, or an error if b does not start with one.
func commandLen(b []byte) (int, error) {
	parts, i, err := respLength(b, 0, '*')
	for k := 0; k < parts && err == nil && i > 0; k++ {
		var n int
		if n, i, err = respLength(b, i, '$'); i > 0 {
			if i += n + 2; i > len(b) {
				return 0, nil
			}
			if b[i-2] != '\r' || b[i-1] != '\n' {
				return 0, errors.New("a RESP bulk string that does not end with CRLF")
			}
		}
	}
	return max(i, 0), err
}

// respLength reads the line "{kind}{digits}\r\n" at b[i:], returning the number and the
// offset after the line, or -1 if b ends first.
func respLength(b []byte, i int, kind byte) (n, next int, err error) {
	if i >= len(b) {
		return 0, -1, nil
	}
	if b[i] != kind {
		return 0, 0, fmt.Errorf("%q where a RESP %q line was expected", b[i], kind)
	}
	for j := i + 1; j < len(b); j++ {
		c := b[j]
		switch {
		case c >= '0' && c <= '9' && n < 1<<40:
			n = n*10 + int(c-'0')
		case c == '\r' && j > i+1:
			if j+1 == len(b) {
				return 0, -1, nil
			}
			if b[j+1] != '\n' {
				return 0, 0, errors.New("a RESP line that does not end with CRLF")
			}
			return n, j + 2, nil
		default:
			return 0, 0, fmt.Errorf("%q in a RESP length", c)
		}
	}
	return 0, -1, nil
}
