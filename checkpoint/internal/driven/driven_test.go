package driven_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/internal/driven"
)

// recordingDriver is a test double: it records the calls that reach it and
// answers from its fields.
type recordingDriver struct {
	calls    []string
	deadline bool // every call's context had a deadline
	found    bool // Get, Latest and List find what they are asked for
	fail     error
	holders  []string // what each Take answers while not taking: an owner, or "" for freed meanwhile
	ops      checkpoint.LeaseOps
	closes   int
}

func (d *recordingDriver) note(ctx context.Context, op string) {
	d.calls = append(d.calls, op)
	_, ok := ctx.Deadline()
	d.deadline = (len(d.calls) == 1 || d.deadline) && ok
}

func (d *recordingDriver) Put(ctx context.Context, r driven.Record) (string, int, int, error) {
	d.note(ctx, "put")
	if r.Manifest != nil && (r.State == nil || len(r.State) > 0) {
		return "", 0, 0, errors.New("a state in pieces came with its whole state")
	}
	return "made-id", 2, 100, d.fail
}

func (d *recordingDriver) Get(ctx context.Context, thread, id string) (checkpoint.Checkpoint, bool, error) {
	d.note(ctx, "get")
	return checkpoint.Checkpoint{Thread: thread, ID: id}, d.found, d.fail
}

func (d *recordingDriver) Latest(ctx context.Context, thread string) (checkpoint.Checkpoint, bool, error) {
	d.note(ctx, "latest")
	return checkpoint.Checkpoint{Thread: thread}, d.found, d.fail
}

func (d *recordingDriver) List(ctx context.Context, _ string, _ checkpoint.ListOptions) ([]checkpoint.Checkpoint, bool, error) {
	d.note(ctx, "list")
	return nil, d.found, d.fail
}

func (d *recordingDriver) Threads(ctx context.Context) ([]checkpoint.ThreadInfo, error) {
	d.note(ctx, "threads")
	return nil, d.fail
}

func (d *recordingDriver) Prune(ctx context.Context, _ string, _ checkpoint.Retention) (int, error) {
	d.note(ctx, "prune")
	return 1, d.fail // one removed before it failed
}

func (d *recordingDriver) Delete(ctx context.Context, _ string) error {
	d.note(ctx, "delete")
	return d.fail
}

func (d *recordingDriver) Stored(ctx context.Context, _ string) (checkpoint.Stored, error) {
	d.note(ctx, "stored")
	return checkpoint.Stored{}, d.fail
}

func (d *recordingDriver) Take(ctx context.Context, _, _, token string, _ time.Time, _ time.Duration) (*checkpoint.LeaseOps, string, error) {
	d.note(ctx, "take")
	if token == "" {
		return nil, "", errors.New("no token")
	}
	if d.fail != nil {
		return nil, "", d.fail
	}
	if len(d.holders) > 0 {
		holder := d.holders[0]
		d.holders = d.holders[1:]
		return nil, holder, nil
	}
	return &d.ops, "", nil
}

func (d *recordingDriver) Close() error {
	d.closes++
	return d.fail
}

// TestStoreKeepsTheRules checks what Store does in front of every driver:
// bad input never reaches it, calls get a deadline, missing checkpoints are
// ErrNotFound, a taken ID and a busy thread are told, and errors name the
// store and the operation.
func TestStoreKeepsTheRules(t *testing.T) {
	ctx := context.Background()
	disk := errors.New("disk on fire")
	cases := []struct {
		name    string
		driver  recordingDriver
		run     func(*driven.Store) error
		calls   string
		wantErr string
	}{
		{"a bad thread stops at the store", recordingDriver{}, func(s *driven.Store) error {
			_, err := s.Get(ctx, "", "id")
			return err
		}, "", "checkpoint/test: get: thread is empty"},
		{"a bad checkpoint stops at the store", recordingDriver{}, func(s *driven.Store) error {
			_, err := s.Put(ctx, checkpoint.Checkpoint{Thread: "t\x00"})
			return err
		}, "", "checkpoint/test: put: thread"},
		{"a bad list stops at the store", recordingDriver{}, func(s *driven.Store) error {
			_, err := s.List(ctx, "t", checkpoint.ListOptions{Limit: -1})
			return err
		}, "", "checkpoint/test: list: limit is -1"},
		{"a bad retention stops at the store", recordingDriver{}, func(s *driven.Store) error {
			_, err := s.Prune(ctx, "t", checkpoint.Retention{KeepLast: -1})
			return err
		}, "", "checkpoint/test: prune: retention KeepLast is -1"},
		{"no retention prunes nothing", recordingDriver{}, func(s *driven.Store) error {
			_, err := s.Prune(ctx, "", checkpoint.Retention{})
			return err
		}, "", ""},
		{"a bad lease stops at the store", recordingDriver{}, func(s *driven.Store) error {
			_, err := s.TryLock(ctx, "t", "me", time.Nanosecond)
			return err
		}, "", "checkpoint/test: lock: lease ttl is 1ns"},
		{"a bad stored thread stops at the store", recordingDriver{}, func(s *driven.Store) error {
			_, err := s.Stored(ctx, "\xc3")
			return err
		}, "", "checkpoint/test: stored: thread"},
		{"a missing checkpoint is ErrNotFound", recordingDriver{}, func(s *driven.Store) error {
			_, err := s.Get(ctx, "t", "id")
			return notFound(t, err)
		}, "get", `checkpoint/test: get: thread "t" checkpoint "id": checkpoint not found`},
		{"a missing thread is ErrNotFound", recordingDriver{}, func(s *driven.Store) error {
			_, err := s.Latest(ctx, "t")
			return notFound(t, err)
		}, "latest", `checkpoint/test: latest: thread "t": checkpoint not found`},
		{"a missing before is ErrNotFound", recordingDriver{}, func(s *driven.Store) error {
			_, err := s.List(ctx, "t", checkpoint.ListOptions{Before: "b"})
			return notFound(t, err)
		}, "list", `checkpoint/test: list: thread "t" before "b": checkpoint not found`},
		{"found is returned", recordingDriver{found: true}, func(s *driven.Store) error {
			cp, err := s.Get(ctx, "t", "id")
			if cp.ID != "id" {
				t.Errorf("Get returned %+v", cp)
			}
			return err
		}, "get", ""},
		{"a taken ID is told", recordingDriver{fail: driven.ErrExists}, func(s *driven.Store) error {
			_, err := s.Put(ctx, checkpoint.Checkpoint{Thread: "t", ID: "x"})
			return err
		}, "put", `checkpoint/test: put: thread "t" already has checkpoint "x"`},
		{"a state in pieces comes without its whole state", recordingDriver{}, func(s *driven.Store) error {
			_, err := s.Put(ctx, checkpoint.Checkpoint{Thread: "t", State: []byte(`{"a":1,"b":"two"}`)})
			return err
		}, "put", ""},
		{"a driver's failure is named", recordingDriver{fail: disk}, func(s *driven.Store) error {
			return s.Delete(ctx, "t")
		}, "delete", "checkpoint/test: delete: disk on fire"},
		{"a failed prune says what it removed", recordingDriver{fail: disk}, func(s *driven.Store) error {
			n, err := s.Prune(ctx, "", checkpoint.Retention{KeepLast: 1})
			if n != 1 {
				t.Errorf("Prune removed %d, want the driver's 1", n)
			}
			return err
		}, "prune", "checkpoint/test: prune: disk on fire"},
		{"threads", recordingDriver{fail: disk}, func(s *driven.Store) error {
			_, err := s.Threads(ctx)
			return err
		}, "threads", "checkpoint/test: threads: disk on fire"},
		{"a failed take names the thread", recordingDriver{fail: disk}, func(s *driven.Store) error {
			_, err := s.TryLock(ctx, "t", "me", time.Minute)
			return err
		}, "take", `checkpoint/test: lock: thread "t": disk on fire`},
		{"a held thread is busy", recordingDriver{holders: []string{"", "other"}}, func(s *driven.Store) error {
			_, err := s.TryLock(ctx, "t", "me", time.Minute)
			var busy *checkpoint.BusyError
			if !errors.As(err, &busy) || busy.Holder != "other" || !errors.Is(err, checkpoint.ErrBusy) {
				t.Errorf("TryLock of a held thread: %v, want a BusyError naming other", err)
			}
			return err
		}, "take,take", `thread "t" is busy: other holds it`},
		{"a lease that keeps changing hands", recordingDriver{holders: []string{"", "", "", ""}}, func(s *driven.Store) error {
			_, err := s.TryLock(ctx, "t", "me", time.Minute)
			return err
		}, "take,take,take", `checkpoint/test: lock: thread "t": its lease changed hands 3 times while it was being taken`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.driver
			err := c.run(driven.New("test", &d))
			if got := strings.Join(d.calls, ","); got != c.calls {
				t.Errorf("driver calls %q, want %q", got, c.calls)
			}
			if len(d.calls) > 0 && !d.deadline {
				t.Error("a driver call had no deadline")
			}
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case c.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), c.wantErr)):
				t.Errorf("error %v, want one starting %q", err, c.wantErr)
			}
		})
	}
}

func notFound(t *testing.T, err error) error {
	t.Helper()
	if !errors.Is(err, checkpoint.ErrNotFound) {
		t.Errorf("%v, want ErrNotFound", err)
	}
	return err
}

// A Put's ID is the driver's and its writes are counted; a lease's errors
// are named; the driver closes once.
func TestStoreCountsLeasesAndCloses(t *testing.T) {
	ctx := context.Background()
	d := &recordingDriver{ops: checkpoint.LeaseOps{
		Renew: func(context.Context) (bool, error) { return true, nil },
		Free:  func(context.Context) error { return errors.New("gone") },
	}}
	s := driven.New("test", d)
	cp, err := s.Put(ctx, checkpoint.Checkpoint{Thread: "t"})
	if err != nil || cp.ID != "made-id" || cp.Metadata.Time.IsZero() {
		t.Fatalf("Put: %+v, %v; want the driver's ID and a time", cp, err)
	}
	if w := s.Written(); w != (checkpoint.Written{Checkpoints: 1, Pieces: 2, Bytes: 100}) {
		t.Errorf("Written after one Put: %+v", w)
	}
	lease, err := s.TryLock(ctx, "t", "me", time.Minute)
	if err != nil {
		t.Fatalf("TryLock: %v", err)
	}
	if err := lease.Release(); err == nil || !strings.HasSuffix(err.Error(), "checkpoint/test: free lease: gone") {
		t.Errorf("Release: %v, want the store and the operation named", err)
	}
	d.fail = errors.New("already gone")
	first, second := s.Close(), s.Close()
	if d.closes != 1 || first == nil || !errors.Is(second, first) || first.Error() != "checkpoint/test: close: already gone" {
		t.Errorf("Close twice: driver closed %d times, errors %v and %v; want once, the same named error", d.closes, first, second)
	}
}

// A renewal's failure is named in the error of the lease it loses.
func TestStoreNamesRenewals(t *testing.T) {
	d := &recordingDriver{ops: checkpoint.LeaseOps{
		Renew: func(context.Context) (bool, error) { return false, errors.New("unplugged") },
		Free:  func(context.Context) error { return nil },
	}}
	lease, err := driven.New("test", d).TryLock(context.Background(), "t", "me", 30*time.Millisecond)
	if err != nil {
		t.Fatalf("TryLock: %v", err)
	}
	defer func() { _ = lease.Release() }()
	select {
	case <-lease.Lost():
	case <-time.After(10 * time.Second):
		t.Fatal("a lease whose renewals fail was not lost")
	}
	if err := lease.Err(); err == nil || !strings.HasSuffix(err.Error(), "checkpoint/test: renew lease: unplugged") {
		t.Errorf("the lost lease's error: %v, want the store and the operation named", err)
	}
}
