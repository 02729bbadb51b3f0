package memory_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sgrgraph/sgrgraph/memory"
)

// recordingDriver is a test double: it records the calls that reach it and
// answers from its fields.
type recordingDriver struct {
	calls    []string
	deadline bool // every call's context had a deadline
	found    bool
	fail     error
	limit    int // the Limit Namespaces was given
	closes   int
}

func (d *recordingDriver) note(ctx context.Context, op string) {
	d.calls = append(d.calls, op)
	_, ok := ctx.Deadline()
	d.deadline = (len(d.calls) == 1 || d.deadline) && ok
}

func (d *recordingDriver) Put(ctx context.Context, it memory.Item) (time.Time, error) {
	d.note(ctx, "put")
	return it.Updated, d.fail
}

func (d *recordingDriver) Get(ctx context.Context, ns []string, key string) (memory.Item, bool, error) {
	d.note(ctx, "get")
	return memory.Item{Namespace: ns, Key: key}, d.found, d.fail
}

func (d *recordingDriver) Delete(ctx context.Context, _ []string, _ string) error {
	d.note(ctx, "delete")
	return d.fail
}

func (d *recordingDriver) Namespaces(ctx context.Context, o memory.ListOptions) ([][]string, error) {
	d.note(ctx, "namespaces")
	d.limit = o.Limit
	return nil, d.fail
}

func (d *recordingDriver) Live(ctx context.Context, _ memory.Query) ([]memory.Item, error) {
	d.note(ctx, "live")
	return nil, d.fail
}

func (d *recordingDriver) Purge(ctx context.Context) (int, error) {
	d.note(ctx, "purge")
	return 0, d.fail
}

func (d *recordingDriver) Close() error {
	d.closes++
	return d.fail
}

// TestNewStoreKeepsTheRules checks what NewStore does in front of every
// driver: bad input and a done context never reach it, calls get a
// deadline, a missing item is ErrNotFound, errors name the store and the
// operation, List's default limit, and one Close.
func TestNewStoreKeepsTheRules(t *testing.T) {
	ctx := context.Background()
	ns := []string{"users", "ann"}
	cases := []struct {
		name    string
		driver  recordingDriver
		run     func(memory.Store) error
		calls   string
		wantErr string
	}{
		{"a bad key stops at the store", recordingDriver{}, func(s memory.Store) error {
			_, err := s.Put(ctx, ns, "", []byte(`{}`), 0)
			return err
		}, "", "memory/test: put: key"},
		{"a value that is no object stops at the store", recordingDriver{}, func(s memory.Store) error {
			_, err := s.Put(ctx, ns, "k", []byte(`[1]`), 0)
			return err
		}, "", "memory/test: put: value"},
		{"a done context stops at the store", recordingDriver{}, func(s memory.Store) error {
			done, cancel := context.WithCancel(ctx)
			cancel()
			_, err := s.Get(done, ns, "k")
			return err
		}, "", "memory/test: get: context canceled"},
		{"missing is ErrNotFound", recordingDriver{}, func(s memory.Store) error {
			_, err := s.Get(ctx, ns, "k")
			if !errors.Is(err, memory.ErrNotFound) {
				t.Errorf("Get of a missing item: %v, want ErrNotFound", err)
			}
			return err
		}, "get", "memory/test: get:"},
		{"found is returned", recordingDriver{found: true}, func(s memory.Store) error {
			_, err := s.Get(ctx, ns, "k")
			return err
		}, "get", ""},
		{"a driver's failure is named", recordingDriver{fail: errors.New("disk on fire")}, func(s memory.Store) error {
			return s.Delete(ctx, ns, "k")
		}, "delete", "memory/test: delete: disk on fire"},
		{"search reads live items", recordingDriver{}, func(s memory.Store) error {
			_, err := s.Search(ctx, memory.Query{Prefix: ns})
			return err
		}, "live", ""},
		{"purge", recordingDriver{}, func(s memory.Store) error {
			_, err := s.Purge(ctx)
			return err
		}, "purge", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.driver
			err := c.run(memory.NewStore("test", &d))
			if got := strings.Join(d.calls, ","); got != c.calls {
				t.Errorf("driver calls %q, want %q", got, c.calls)
			}
			if len(d.calls) > 0 && !d.deadline {
				t.Error("a driver call had no deadline")
			}
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("error %v, want one containing %q", err, c.wantErr)
			}
		})
	}
}

func TestNewStoreListDefaultsAndClosesOnce(t *testing.T) {
	d := &recordingDriver{}
	s := memory.NewStore("test", d)
	spaces, err := s.List(context.Background(), memory.ListOptions{})
	if err != nil || spaces == nil || len(spaces) != 0 {
		t.Fatalf("List on an empty driver: %v, %v; want an empty, non-nil list", spaces, err)
	}
	if d.limit != memory.DefaultLimit {
		t.Errorf("Namespaces got Limit %d, want DefaultLimit %d", d.limit, memory.DefaultLimit)
	}
	d.fail = errors.New("already gone")
	first, second := s.Close(), s.Close()
	if d.closes != 1 || first == nil || !errors.Is(second, first) {
		t.Errorf("Close twice: driver closed %d times, errors %v and %v; want once, the same error", d.closes, first, second)
	}
}
