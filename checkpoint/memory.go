package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint/internal/blob"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

// memory keeps checkpoints in maps under one mutex. It copies every value in
// and out, so callers can never change what it stores. A state is kept as
// its pieces (package blob), each once per thread, as the other stores keep
// it.
type memory struct {
	mu      sync.Mutex
	threads map[string]*memThread
	closed  bool
	locks   *procLocker // the leases of TryLock, in this process as the threads are
	written WriteMeter
}

// memThread holds one thread's checkpoints in Put order and the pieces of
// their states.
type memThread struct {
	seq    int64            // the sequence number of the last Put
	list   []memEntry       // ascending seq
	seqs   map[string]int64 // ID to seq, to find an entry by binary search
	pieces map[string]*memPiece
}

type memEntry struct {
	seq      int64
	cp       Checkpoint // without its State
	manifest []string   // the state's pieces
}

// memPiece is a piece of state and how many times the thread's manifests
// name it.
type memPiece struct {
	data []byte
	refs int
}

// NewMemory returns a Store that lives in this process only: for tests and
// single-process programs that need no durability.
func NewMemory() Store {
	return &memory{threads: map[string]*memThread{}, locks: newProcLocker("checkpoint/memory")}
}

func memErr(op string, err error) error {
	return fmt.Errorf("checkpoint/memory: %s: %w", op, err)
}

var errClosed = errors.New("store is closed")

// lock takes the mutex unless the store is closed; callers unlock on nil.
func (m *memory) lock(op string) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return memErr(op, errClosed)
	}
	return nil
}

func (m *memory) Put(_ context.Context, cp Checkpoint) (Checkpoint, error) {
	if err := rules.Put(cp.Thread, cp.ID, cp.Parent, len(cp.State), cp.Metadata.Time); err != nil {
		return Checkpoint{}, memErr("put", err)
	}
	for i, in := range cp.Interrupts {
		if err := rules.Interrupt(i, in.Payload, in.Value); err != nil {
			return Checkpoint{}, memErr("put", err)
		}
	}
	for i, b := range cp.Branches {
		if err := rules.Branch(i, b.State); err != nil {
			return Checkpoint{}, memErr("put", err)
		}
	}
	if cp.Metadata.Time.IsZero() {
		cp.Metadata.Time = time.Now()
	}
	cp.Metadata.Time = cp.Metadata.Time.UTC()
	pieces := blob.Split(cp.State)
	if err := m.lock("put"); err != nil {
		return Checkpoint{}, err
	}
	defer m.mu.Unlock()
	th := m.threads[cp.Thread]
	if th == nil {
		th = &memThread{seqs: map[string]int64{}, pieces: map[string]*memPiece{}}
		m.threads[cp.Thread] = th
	}
	if cp.ID == "" {
		cp.ID = rules.NewID(th.seq + 1)
	} else if th.find(cp.ID) >= 0 {
		return Checkpoint{}, memErr("put", fmt.Errorf("thread %q already has checkpoint %q", cp.Thread, cp.ID))
	}
	written, bytes := 0, 0
	for _, p := range pieces {
		kept := th.pieces[p.Hash]
		if kept == nil {
			kept = &memPiece{data: slices.Clone(p.Data)}
			th.pieces[p.Hash] = kept
			written, bytes = written+1, bytes+len(p.Data)
		}
		kept.refs++
	}
	m.written.Add(written, bytes)
	th.seq++
	entry := memEntry{seq: th.seq, cp: clone(cp), manifest: blob.Hashes(pieces)}
	entry.cp.State = nil
	th.list = append(th.list, entry)
	th.seqs[cp.ID] = th.seq
	return clone(cp), nil
}

// checkpoint is an entry with its state joined from its pieces.
func (th *memThread) checkpoint(e memEntry) Checkpoint {
	cp := clone(e.cp)
	if len(e.manifest) > 0 {
		// Pieces are kept while a manifest names them: Join cannot fail.
		cp.State, _ = blob.Join(e.manifest, func(h string) ([]byte, bool) {
			p := th.pieces[h]
			if p == nil {
				return nil, false
			}
			return p.data, true
		})
	}
	return cp
}

func (m *memory) Get(_ context.Context, thread, id string) (Checkpoint, error) {
	if err := errors.Join(rules.Key("thread", thread), rules.Key("id", id)); err != nil {
		return Checkpoint{}, memErr("get", err)
	}
	if err := m.lock("get"); err != nil {
		return Checkpoint{}, err
	}
	defer m.mu.Unlock()
	if th := m.threads[thread]; th != nil {
		if i := th.find(id); i >= 0 {
			return th.checkpoint(th.list[i]), nil
		}
	}
	return Checkpoint{}, memErr("get", fmt.Errorf("thread %q checkpoint %q: %w", thread, id, ErrNotFound))
}

func (m *memory) Latest(_ context.Context, thread string) (Checkpoint, error) {
	if err := rules.Key("thread", thread); err != nil {
		return Checkpoint{}, memErr("latest", err)
	}
	if err := m.lock("latest"); err != nil {
		return Checkpoint{}, err
	}
	defer m.mu.Unlock()
	if th := m.threads[thread]; th != nil && len(th.list) > 0 {
		return th.checkpoint(th.list[len(th.list)-1]), nil
	}
	return Checkpoint{}, memErr("latest", fmt.Errorf("thread %q: %w", thread, ErrNotFound))
}

func (m *memory) List(_ context.Context, thread string, o ListOptions) ([]Checkpoint, error) {
	if err := rules.List(thread, o.Limit, o.Before); err != nil {
		return nil, memErr("list", err)
	}
	if err := m.lock("list"); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	th := m.threads[thread]
	if th == nil {
		th = &memThread{}
	}
	end := len(th.list)
	if o.Before != "" {
		if end = th.find(o.Before); end < 0 {
			return nil, memErr("list", fmt.Errorf("thread %q before %q: %w", thread, o.Before, ErrNotFound))
		}
	}
	var out []Checkpoint
	for i := end - 1; i >= 0 && (o.Limit == 0 || len(out) < o.Limit); i-- {
		if o.NoState {
			out = append(out, withoutState(clone(th.list[i].cp)))
			continue
		}
		out = append(out, th.checkpoint(th.list[i]))
	}
	return out, nil
}

func (m *memory) Threads(context.Context) ([]ThreadInfo, error) {
	if err := m.lock("threads"); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	out := make([]ThreadInfo, 0, len(m.threads))
	for name, th := range m.threads {
		last := th.list[len(th.list)-1].cp
		out = append(out, ThreadInfo{Thread: name, Checkpoints: len(th.list), Latest: last.Metadata.Time})
	}
	// The most recently written first, as the SQL stores order them.
	slices.SortFunc(out, func(a, b ThreadInfo) int {
		if c := b.Latest.Compare(a.Latest); c != 0 {
			return c
		}
		return strings.Compare(a.Thread, b.Thread)
	})
	return out, nil
}

func (m *memory) Prune(_ context.Context, thread string, r Retention) (int, error) {
	if err := rules.Retention(thread, r.KeepLast, r.MaxAge); err != nil {
		return 0, memErr("prune", err)
	}
	if err := m.lock("prune"); err != nil {
		return 0, err
	}
	defer m.mu.Unlock()
	now, removed := time.Now(), 0
	for name, th := range m.threads {
		if thread != "" && name != thread {
			continue
		}
		removed += th.prune(r, now)
		if len(th.list) == 0 {
			delete(m.threads, name)
		}
	}
	return removed, nil
}

func (m *memory) Delete(_ context.Context, thread string) error {
	if err := rules.Key("thread", thread); err != nil {
		return memErr("delete", err)
	}
	if err := m.lock("delete"); err != nil {
		return err
	}
	defer m.mu.Unlock()
	delete(m.threads, thread)
	return nil
}

// Written implements Meter: the memory store counts the pieces of state
// it keeps, its other fields cost no encoding.
func (m *memory) Written() Written { return m.written.Written() }

// Stored implements Meter.
func (m *memory) Stored(_ context.Context, thread string) (Stored, error) {
	if err := rules.OptionalKey("thread", thread); err != nil {
		return Stored{}, memErr("stored", err)
	}
	if err := m.lock("stored"); err != nil {
		return Stored{}, err
	}
	defer m.mu.Unlock()
	var out Stored
	for name, th := range m.threads {
		if thread != "" && name != thread {
			continue
		}
		for _, p := range th.pieces {
			out.Pieces++
			out.Bytes += int64(len(p.data))
		}
	}
	return out, nil
}

// TryLock implements Locker: the leases live in this process, as the
// threads do.
func (m *memory) TryLock(ctx context.Context, thread, owner string, ttl time.Duration) (*Lease, error) {
	return m.locks.TryLock(ctx, thread, owner, ttl)
}

func (m *memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed, m.threads = true, nil
	m.locks.close()
	return nil
}
