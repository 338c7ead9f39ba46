package file

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
)

// The log is a sequence of frames, each uint32 length · uint32 CRC-32C · payload
// (little-endian). A frame's payload is either a change set (a buntdb command stream,
// which always starts with '*') or a sync mark: markTag and a uint64 offset, written
// after an fsync of the log to say that every byte before that offset was on disk by
// then. Marks are what tell a torn tail from damage: a crash can tear only what was
// written after the last fsync, so a bad frame followed by a mark that covers it was
// damaged after it reached the disk.

const (
	frameHeader = 8          // length and CRC-32C
	markTag     = "#synced " // a mark's payload starts with it; no change set does
	markPayload = len(markTag) + 8
	markFrame   = frameHeader + markPayload
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// checksum is a frame's CRC-32C of its payload.
func checksum(p []byte) uint32 { return crc32.Checksum(p, crcTable) }

// appendFrame appends payload framed as a log record: length, CRC-32C, payload.
func appendFrame(b, payload []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = binary.LittleEndian.AppendUint32(b, checksum(payload))
	return append(b, payload...)
}

// appendMark appends the frame of a mark saying that the log was on disk up to synced.
func appendMark(b []byte, synced int64) []byte {
	var p [markPayload]byte
	copy(p[:], markTag)
	binary.LittleEndian.PutUint64(p[len(markTag):], uint64(synced))
	return appendFrame(b, p[:])
}

// markOf returns the offset a mark's payload vouches for, and whether payload is a mark.
func markOf(payload []byte) (synced int64, ok bool) {
	if len(payload) != markPayload || string(payload[:len(markTag)]) != markTag {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint64(payload[len(markTag):])), true
}

// frameReader reads the frames of a log from its start, knowing the log's size, so that
// a damaged length never makes it allocate more than the file holds.
type frameReader struct {
	r    *bufio.Reader
	off  int64 // offset of the next frame
	size int64
}

func newFrameReader(r io.ReaderAt, size int64) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 1<<20), size: size}
}

// skip passes over n bytes that are not frames.
func (fr *frameReader) skip(n int64) {
	fr.r.Discard(int(n))
	fr.off += n
}

// next returns the next frame's payload, or a description of why the frame at fr.off is
// not intact (problem), or io.EOF at the end of the log.
func (fr *frameReader) next() (payload []byte, problem string, err error) {
	if fr.off == fr.size {
		return nil, "", io.EOF
	}
	var hdr [frameHeader]byte
	if _, err := io.ReadFull(fr.r, hdr[:]); err != nil {
		return nil, "a record header cut short by the end of the file", nil
	}
	n := int64(binary.LittleEndian.Uint32(hdr[:4]))
	switch {
	case n == 0:
		return nil, "a record of length zero", nil
	case n > fr.size-fr.off-frameHeader:
		return nil, "a record length past the end of the file", nil
	}
	payload = make([]byte, n)
	if _, err := io.ReadFull(fr.r, payload); err != nil {
		return nil, "", err
	}
	if checksum(payload) != binary.LittleEndian.Uint32(hdr[4:]) {
		return nil, "a record whose checksum does not match", nil
	}
	fr.off += frameHeader + n
	return payload, "", nil
}

// findMark returns the offset of the first intact mark after off that vouches for off
// (its offset is past off): proof that the bytes at off had reached the disk. It reads
// r from off to size a chunk at a time, looking for markTag.
func findMark(r io.ReaderAt, off, size int64) (at int64, ok bool) {
	const chunk = 1 << 20
	buf := make([]byte, chunk+markFrame)
	for base := off + 1; base < size; base += chunk {
		n, _ := r.ReadAt(buf[:min(int64(len(buf)), size-base)], base)
		for i := 0; ; {
			j := bytes.Index(buf[i:n], []byte(markTag))
			if j < 0 {
				break
			}
			p := i + j // the payload's start in buf
			start := base + int64(p) - frameHeader
			if synced, ok := markAt(buf[:n], p); ok && start > off && synced > off && synced <= start {
				return start, true
			}
			i = p + 1
		}
	}
	return 0, false
}

// markAt decodes the mark whose payload starts at p in buf, checking its frame.
func markAt(buf []byte, p int) (synced int64, ok bool) {
	if p < frameHeader || p+markPayload > len(buf) {
		return 0, false
	}
	hdr, payload := buf[p-frameHeader:p], buf[p:p+markPayload]
	if binary.LittleEndian.Uint32(hdr[:4]) != uint32(markPayload) ||
		binary.LittleEndian.Uint32(hdr[4:]) != checksum(payload) {
		return 0, false
	}
	return markOf(payload)
}
