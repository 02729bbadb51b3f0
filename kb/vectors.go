package kb

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The vector index is one file beside the search index's generations,
// vectors.bin: a header naming the embedding model and the vectors' size,
// then, per chunk, its ID, the hash of the file it came from and its unit
// vector. A chunk is embedded again only when its file's hash changes; a
// change of model or size embeds every chunk again. The file is replaced
// whole by a rename, so a reader has the old one or the new one.
//
// Search is exact: the query's cosine with every vector, a dot product of
// unit vectors. A knowledge base of 10,000 chunks of 1,024 dimensions is
// 40 MB and about ten million multiply-adds a query (milliseconds); an
// approximate index (HNSW) pays off only well past that, and would make
// the ranking depend on how the graph was built.
const (
	vectorsName  = "vectors.bin"
	vectorsMagic = "sgrgraph-vectors 1\n"
	// embedTextVersion changes when what is embedded of a chunk does
	// (embedText), so that vectors of the old text are made again.
	embedTextVersion = 1
)

// vectorSet is the vectors of one model over one knowledge base.
type vectorSet struct {
	model string
	dims  int
	ids   []string  // chunk IDs, path#n
	files []string  // the hash of each chunk's file when it was embedded
	vecs  []float32 // len(ids)×dims, unit length
	index map[string]int
}

type vectorsHeader struct {
	Model string `json:"model"`
	Dims  int    `json:"dims"`
	Text  int    `json:"text"`
	Count int    `json:"count"`
}

func (vs *vectorSet) vector(i int) []float32 { return vs.vecs[i*vs.dims : (i+1)*vs.dims] }

func (vs *vectorSet) add(id, file string, vec []float32) {
	vs.ids, vs.files = append(vs.ids, id), append(vs.files, file)
	vs.vecs = append(vs.vecs, vec...)
}

func (vs *vectorSet) indexIDs() {
	vs.index = make(map[string]int, len(vs.ids))
	for i, id := range vs.ids {
		vs.index[id] = i
	}
}

// nearest are the n entries most similar to the unit vector q, best
// first (ties in entry order), among those current allows.
func (vs *vectorSet) nearest(q []float32, n int, current func(i int) bool) []int {
	type hit struct {
		i   int
		sim float32
	}
	hits := make([]hit, 0, len(vs.ids))
	for i := range vs.ids {
		if !current(i) {
			continue
		}
		var dot float32
		for k, x := range vs.vector(i) {
			dot += x * q[k]
		}
		hits = append(hits, hit{i, dot})
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		switch {
		case a.sim > b.sim:
			return -1
		case a.sim < b.sim:
			return 1
		}
		return 0
	})
	out := make([]int, min(n, len(hits)))
	for k := range out {
		out[k] = hits[k].i
	}
	return out
}

// readVectors reads a vector file; any fault (absent, damaged, another
// version) is an error, and the caller embeds anew.
func readVectors(path string) (*vectorSet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	magic := make([]byte, len(vectorsMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != vectorsMagic {
		return nil, fmt.Errorf("%s: not a vector file", path)
	}
	line, err := r.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var h vectorsHeader
	if err := json.Unmarshal(line, &h); err != nil || h.Dims < 1 || h.Count < 0 || h.Text != embedTextVersion {
		return nil, fmt.Errorf("%s: header %q not understood", path, bytes.TrimSpace(line))
	}
	vs := &vectorSet{model: h.Model, dims: h.Dims}
	vec := make([]float32, h.Dims)
	for range h.Count {
		id, err1 := readString(r)
		file, err2 := readString(r)
		err3 := binary.Read(r, binary.LittleEndian, vec)
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		vs.add(id, file, vec)
	}
	vs.indexIDs()
	return vs, nil
}

func readString(r *bufio.Reader) (string, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil || n > 1<<16 {
		return "", fmt.Errorf("bad string length %d (%w)", n, err)
	}
	b := make([]byte, n)
	_, err = io.ReadFull(r, b)
	return string(b), err
}

// writeVectors writes vs to path by a rename, flushed first.
func writeVectors(path string, vs *vectorSet) error {
	var b bytes.Buffer
	b.WriteString(vectorsMagic)
	h, _ := json.Marshal(vectorsHeader{Model: vs.model, Dims: vs.dims, Text: embedTextVersion, Count: len(vs.ids)})
	b.Write(h)
	b.WriteByte('\n')
	var num [binary.MaxVarintLen64]byte
	for i, id := range vs.ids {
		for _, s := range []string{id, vs.files[i]} {
			b.Write(num[:binary.PutUvarint(num[:], uint64(len(s)))])
			b.WriteString(s)
		}
		for _, x := range vs.vector(i) {
			binary.LittleEndian.PutUint32(num[:4], math.Float32bits(x))
			b.Write(num[:4])
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), vectorsName+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	tmp.Close()
	if err := writeFileSynced(name, b.Bytes()); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

// VectorStats says what bringing the vector index in line did.
type VectorStats struct {
	Embedded int `json:"embedded"`
	Reused   int `json:"reused"`
	Removed  int `json:"removed"`
	// Rebuilt says why every chunk was embedded again, when they were.
	Rebuilt string `json:"rebuilt,omitempty"`
}

// chunkFile is the path a chunk ID (path#n) belongs to.
func chunkFile(id string) string {
	if i := strings.LastIndexByte(id, '#'); i >= 0 {
		return id[:i]
	}
	return id
}

// embedText is what is embedded of a chunk: its article's title, its
// heading path and its text.
func embedText(c *storedChunk) string {
	return c.title + "\n" + c.heading + "\n" + c.text
}
