package cachestore_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sgrgraph/sgrgraph/graph/cachestore"
	"github.com/sgrgraph/sgrgraph/internal/storeopen"
)

// recordingDriver is a test double: it records the calls that reach it and
// answers from its fields.
type recordingDriver struct {
	calls    []string
	deadline bool      // every call's context had a deadline
	seen     time.Time // the last call's deadline
	nilValue bool      // a Set was given a nil value
	found    bool
	fail     error
	closes   int
}

func (d *recordingDriver) note(ctx context.Context, op string) {
	d.calls = append(d.calls, op)
	var ok bool
	d.seen, ok = ctx.Deadline()
	d.deadline = (len(d.calls) == 1 || d.deadline) && ok
}

// Get answers a found key with a nil value, which the store must not pass on.
func (d *recordingDriver) Get(ctx context.Context, _ string) ([]byte, bool, error) {
	d.note(ctx, "get")
	return nil, d.found, d.fail
}

func (d *recordingDriver) Set(ctx context.Context, _ string, value []byte, _ time.Duration) error {
	d.note(ctx, "set")
	d.nilValue = d.nilValue || value == nil
	return d.fail
}

func (d *recordingDriver) Close() error {
	d.closes++
	return d.fail
}

// TestNewStoreKeepsTheRules checks what NewStore does in front of every
// driver: bad input and a done context never reach it, calls get a
// deadline, errors name the store and the operation, a value found or set
// is never nil.
func TestNewStoreKeepsTheRules(t *testing.T) {
	ctx := context.Background()
	longKey := strings.Repeat("k", cachestore.MaxKeyBytes+1)
	done, cancel := context.WithCancel(ctx)
	cancel()
	getErr := func(s *cachestore.Store, ctx context.Context, key string) error {
		value, ok, err := s.Get(ctx, key)
		if ok && value == nil {
			t.Error("Get found a key with a nil value")
		}
		if err != nil && (ok || value != nil) {
			t.Errorf("Get failed with %v but returned %q, %v", err, value, ok)
		}
		return err
	}
	cases := []struct {
		name    string
		driver  recordingDriver
		run     func(*cachestore.Store) error
		calls   string
		wantErr string
	}{
		{"an empty key stops at the store", recordingDriver{}, func(s *cachestore.Store) error {
			return getErr(s, ctx, "")
		}, "", "cachestore/test: get: key is empty"},
		{"a long key stops at the store", recordingDriver{}, func(s *cachestore.Store) error {
			return s.Set(ctx, longKey, []byte("v"), 0)
		}, "", "cachestore/test: set: key is 2049 bytes, over the limit of 2048"},
		{"a big value stops at the store", recordingDriver{}, func(s *cachestore.Store) error {
			return s.Set(ctx, "k", make([]byte, cachestore.MaxValueBytes+1), 0)
		}, "", "cachestore/test: set: value is 16777217 bytes, over the limit of 16777216"},
		{"a negative ttl stops at the store", recordingDriver{}, func(s *cachestore.Store) error {
			return s.Set(ctx, "k", []byte("v"), -time.Second)
		}, "", "cachestore/test: set: ttl must not be negative, got -1s"},
		{"a done context stops a get", recordingDriver{}, func(s *cachestore.Store) error {
			return getErr(s, done, "k")
		}, "", "cachestore/test: get: context canceled"},
		{"a done context stops a set", recordingDriver{}, func(s *cachestore.Store) error {
			return s.Set(done, "k", []byte("v"), 0)
		}, "", "cachestore/test: set: context canceled"},
		{"missing is no error", recordingDriver{}, func(s *cachestore.Store) error {
			return getErr(s, ctx, "k")
		}, "get", ""},
		{"found is never nil", recordingDriver{found: true}, func(s *cachestore.Store) error {
			value, ok, err := s.Get(ctx, "k")
			if !ok || value == nil {
				t.Errorf("Get of a found key: %q, %v; want an empty value, true", value, ok)
			}
			return err
		}, "get", ""},
		{"a nil value is set as empty", recordingDriver{}, func(s *cachestore.Store) error {
			return s.Set(ctx, "k", nil, time.Hour)
		}, "set", ""},
		{"a driver's failure in get is named", recordingDriver{found: true, fail: errors.New("disk on fire")}, func(s *cachestore.Store) error {
			return getErr(s, ctx, "k")
		}, "get", "cachestore/test: get: disk on fire"},
		{"a driver's failure in set is named", recordingDriver{fail: errors.New("disk on fire")}, func(s *cachestore.Store) error {
			return s.Set(ctx, "k", []byte("v"), 0)
		}, "set", "cachestore/test: set: disk on fire"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.driver
			err := c.run(cachestore.NewStore("test", &d))
			if got := strings.Join(d.calls, ","); got != c.calls {
				t.Errorf("driver calls %q, want %q", got, c.calls)
			}
			if len(d.calls) > 0 && !d.deadline {
				t.Error("a driver call had no deadline")
			}
			if d.nilValue {
				t.Error("the driver was given a nil value")
			}
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case c.wantErr != "" && (err == nil || err.Error() != c.wantErr):
				t.Errorf("error %v, want %q", err, c.wantErr)
			}
		})
	}
}

// A call keeps the deadline of its caller's context, and one without gets
// storeopen.DefaultTimeout's.
func TestNewStoreKeepsTheCallersDeadline(t *testing.T) {
	d := &recordingDriver{}
	s := cachestore.NewStore("test", d)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	want, _ := ctx.Deadline()
	if err := s.Set(ctx, "k", []byte("v"), 0); err != nil || !d.seen.Equal(want) {
		t.Errorf("Set with a deadline of an hour: %v, the driver saw deadline %v, want %v", err, d.seen, want)
	}
	before := time.Now()
	_, _, err := s.Get(context.Background(), "k")
	if after := time.Now(); err != nil || d.seen.Before(before.Add(storeopen.DefaultTimeout)) || d.seen.After(after.Add(storeopen.DefaultTimeout)) {
		t.Errorf("Get without a deadline: %v, the driver saw deadline %v from now, want %v", err, d.seen.Sub(before), storeopen.DefaultTimeout)
	}
}

func TestNewStoreClosesOnce(t *testing.T) {
	d := &recordingDriver{fail: errors.New("already gone")}
	s := cachestore.NewStore("test", d)
	first, second := s.Close(), s.Close()
	if d.closes != 1 || first == nil || !errors.Is(second, first) {
		t.Errorf("Close twice: driver closed %d times, errors %v and %v; want once, the same error", d.closes, first, second)
	}
	if first != nil && first.Error() != "cachestore/test: close: already gone" {
		t.Errorf("Close: %v, want the store and the operation named", first)
	}
}
