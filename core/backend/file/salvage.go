package file

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// SalvageReport says what Salvage kept of each data file and what it lost.
type SalvageReport struct {
	Snapshot, Log SalvagedFile
}

// SalvagedFile is what Salvage did with one data file.
type SalvagedFile struct {
	Path    string
	Kept    int      // records kept: a snapshot's commands, a log's change sets
	Lost    []Region // the damaged stretches skipped
	MovedTo string   // where the damaged file was kept, "" if it was intact
}

// Region is a stretch of a file.
type Region struct{ Offset, Length int64 }

// Salvage rewrites the data files of the backend directory dir, which must not be open,
// keeping every intact record: each frame whose checksum holds, found again after a
// damaged stretch by the next offset where an intact frame starts. A damaged file is
// first kept aside as {name}.damaged-{time}, then replaced by one holding what was kept;
// intact files are left alone. A crash during Salvage leaves either file in place,
// damaged or rewritten, and the copy aside.
func Salvage(dir string) (SalvageReport, error) {
	lock, err := lockDir(filepath.Join(dir, "LOCK"))
	if err != nil {
		return SalvageReport{}, err
	}
	defer lock.Close()
	stamp := time.Now().UTC().Format("20060102T150405Z")
	var r SalvageReport
	r.Snapshot, err = salvageFile(filepath.Join(dir, "snapshot"), stamp, salvageSnapshot)
	if err != nil {
		return r, err
	}
	r.Log, err = salvageFile(filepath.Join(dir, "log"), stamp, salvageLog)
	return r, err
}

// salvageFile reads path, which may be missing, and rewrites it with what salvage keeps
// of it if salvage found damage.
func salvageFile(path, stamp string, salvage func(data []byte, f *SalvagedFile) ([]byte, error)) (SalvagedFile, error) {
	f := SalvagedFile{Path: path}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	kept, err := salvage(data, &f)
	if err != nil || len(f.Lost) == 0 {
		return f, err
	}
	f.MovedTo = path + ".damaged-" + stamp
	return f, replaceKeepingAside(path, f.MovedTo, kept)
}

// replaceKeepingAside links path to aside, then replaces path with data, atomically.
func replaceKeepingAside(path, aside string, data []byte) error {
	if err := os.Link(path, aside); err != nil {
		return fmt.Errorf("keep the damaged file aside: %w", err)
	}
	tmp := path + ".salvaged"
	if err := writeSynced(tmp, data); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("install the salvaged file: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

// writeSynced writes data to a new file at path and fsyncs it.
func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		os.Remove(path)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// salvageLog keeps the log's intact change sets, framed anew and ended by a sync mark.
func salvageLog(data []byte, f *SalvagedFile) ([]byte, error) {
	var out []byte
	eachIntactFrame(data, 0, f, func(payload []byte) bool {
		if _, mark := markOf(payload); !mark && payload[0] == '*' {
			out = appendFrame(out, payload)
			f.Kept++
		}
		return true
	})
	return appendMark(out, int64(len(out))), nil
}

// salvageSnapshot keeps the snapshot's intact commands, in a snapshot file of their own.
func salvageSnapshot(data []byte, f *SalvagedFile) ([]byte, error) {
	if len(data) == 0 || unframed(data) {
		return nil, nil // the format before frames has no checksums to go by
	}
	start := int64(len(snapMagic))
	if len(data) < len(snapMagic) || string(data[:start]) != snapMagic {
		f.Lost = append(f.Lost, Region{0, min(start, int64(len(data)))})
	}
	var out bytes.Buffer
	sw, err := newSnapshotWriter(&out)
	if err != nil {
		return nil, err
	}
	ended := false
	eachIntactFrame(data, start, f, func(payload []byte) bool {
		if payload[0] == '*' {
			_, err = sw.Write(payload)
			f.Kept++
		}
		ended = payload[0] == endTag && len(payload) == endFrame
		return err == nil
	})
	if !ended {
		f.Lost = append(f.Lost, Region{int64(len(data)), 0}) // cut short: its end is missing
	}
	err = errors.Join(err, sw.Close())
	return out.Bytes(), err
}

// eachIntactFrame calls fn with the payload of each intact frame of data from start,
// until fn returns false, recording in f each damaged stretch it skips to find the next.
func eachIntactFrame(data []byte, start int64, f *SalvagedFile, fn func(payload []byte) bool) {
	for off := start; off < int64(len(data)); {
		n, ok := intactFrameAt(data, off)
		if !ok {
			next := off + 1
			for next < int64(len(data)) && !intact(data, next) {
				next++
			}
			f.Lost = append(f.Lost, Region{off, next - off})
			off = next
			continue
		}
		if !fn(data[off+frameHeader : off+n]) {
			return
		}
		off += n
	}
}

// intactFrameAt returns the size of the frame at data[off:] and whether it is intact.
func intactFrameAt(data []byte, off int64) (int64, bool) {
	if int64(len(data))-off < frameHeader {
		return 0, false
	}
	n := int64(binary.LittleEndian.Uint32(data[off:]))
	if n == 0 || n > int64(len(data))-off-frameHeader {
		return 0, false
	}
	payload := data[off+frameHeader : off+frameHeader+n]
	return frameHeader + n, checksum(payload) == binary.LittleEndian.Uint32(data[off+4:])
}

func intact(data []byte, off int64) bool {
	_, ok := intactFrameAt(data, off)
	return ok
}
