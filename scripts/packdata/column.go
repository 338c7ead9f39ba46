package main

import (
	"encoding/binary"
	"slices"
)

const (
	// columnStride is the size of one record of Go's findfunctab: a uint32 (the index of
	// the bucket's first function) and 16 one-byte deltas. A bucket covers 4,096 bytes of
	// PC and a wasm PC is a function's index shifted left by 16, so a Go wasm program
	// carries 16 buckets per function (a large share of the browser's), their deltas all
	// zero and their index growing by one every 16 records.
	columnStride = 20
	// columnWidth is the bytes at the start of each record that hold its value.
	columnWidth = 4
	// minColumn is the fewest records with a value worth a column: fewer cost more to
	// describe than they save.
	minColumn = 1024
	// maxStep is the largest increase from one value to the next: each is one byte.
	maxStep = 255
	// maxImage bounds the memory image Lift builds: Go's data spans a few MB.
	maxImage = 1 << 26
)

// column is a run of records of stride bytes from offset in memory, each a little-endian
// uint32 (values, not decreasing and growing by at most maxStep from one record to the
// next), then zeros.
type column struct {
	offset, stride uint32
	values         []uint32
}

// findColumn finds the longest column in the memory image that starts at base (the
// first segment's offset), without its leading records of value zero, or reports none
// of at least minColumn records with a value.
func findColumn(img []byte, base uint32) (column, bool) {
	var best column
	for phase := 0; phase < columnStride; phase++ {
		if (base+uint32(phase))%columnWidth != 0 {
			continue
		}
		for at := phase; at+columnStride <= len(img); {
			c := columnAt(img, at)
			if nonZero(c.values) > nonZero(best.values) {
				best = c
				best.offset += base
			}
			at += columnStride * max(1, len(c.values))
		}
	}
	return trimColumn(best), nonZero(best.values) >= minColumn
}

// columnAt is the run of records from at in img (offset at, relative to the image).
func columnAt(img []byte, at int) column {
	c := column{offset: uint32(at), stride: columnStride}
	var last uint32
	for p := at; p+columnStride <= len(img); p += columnStride {
		v := binary.LittleEndian.Uint32(img[p:])
		if v < last || v-last > maxStep || !zero(img[p+columnWidth:p+columnStride]) {
			break
		}
		c.values = append(c.values, v)
		last = v
	}
	return c
}

// trimColumn drops the records at the start of c whose value is zero: memory starts
// zeroed, so they need no writing.
func trimColumn(c column) column {
	first := slices.IndexFunc(c.values, func(v uint32) bool { return v != 0 })
	if first < 0 {
		return column{}
	}
	c.offset += uint32(first) * c.stride
	c.values = c.values[first:]
	return c
}

// steps is where Lift keeps the column's steps in memory: the last len(values) bytes of
// the column's records, which the loop that writes the values reads before any of its
// writes reaches them (see startBody).
func (c column) steps() uint32 {
	n := uint32(len(c.values))
	return c.offset + c.stride*n - n
}

// stepBytes is each value's increase over the one before, the first's zero.
func (c column) stepBytes() []byte {
	b := make([]byte, len(c.values))
	for i := 1; i < len(c.values); i++ {
		b[i] = byte(c.values[i] - c.values[i-1])
	}
	return b
}

func nonZero(values []uint32) int {
	n := 0
	for _, v := range values {
		if v != 0 {
			n++
		}
	}
	return n
}

func zero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
