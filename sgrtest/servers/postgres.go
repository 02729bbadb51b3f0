package servers

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Postgres initialises a new cluster, starts it and returns the URL of its
// postgres database as the superuser postgres, without password or TLS:
// postgres://postgres@127.0.0.1:PORT/postgres?sslmode=disable. The server
// stops and its files are removed when the test ends.
//
// initdb and postgres refuse to run as root, so as root they run as the
// postgres user (through runuser) in a directory that user owns.
func Postgres(tb testing.TB) (url string) {
	tb.Helper()
	bin, err := postgresBin()
	if err != nil {
		tb.Fatalf("servers: %v; %s", err, install)
	}
	pg := &postgres{tb: tb, bin: bin}
	if err := pg.init(); err != nil {
		tb.Fatalf("servers: postgres: %v; %s", err, install)
	}
	var errs []string
	for range attempts {
		url, err := pg.start()
		if err == nil {
			return url
		}
		errs = append(errs, err.Error())
	}
	tb.Fatalf("servers: postgres did not start: %s; %s", strings.Join(errs, "; "), install)
	return ""
}

// postgres is one cluster in a temporary directory.
type postgres struct {
	tb      testing.TB
	bin     string   // the directory of initdb, pg_ctl and postgres
	asUser  []string // the command prefix that runs as the postgres user, or none
	dir     string
	dataDir string
}

// postgresBin returns the directory of the server binaries: that of initdb on
// PATH (through symlinks, as Debian links them into /usr/local/bin) or else
// the newest /usr/lib/postgresql/*/bin.
func postgresBin() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		return filepath.Dir(p), nil
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(found) == 0 {
		return "", fmt.Errorf("initdb not found on PATH nor in /usr/lib/postgresql/*/bin")
	}
	version := func(p string) int { // .../postgresql/15/bin/initdb
		n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(p))))
		return n
	}
	slices.SortFunc(found, func(a, b string) int { return version(a) - version(b) })
	return filepath.Dir(found[len(found)-1]), nil
}

// init makes the directory and runs initdb in it.
func (pg *postgres) init() error {
	dir, err := os.MkdirTemp("", "sgrgraph-pg-") // not t.TempDir: its parents are private to root
	if err != nil {
		return err
	}
	pg.dir, pg.dataDir = dir, filepath.Join(dir, "data")
	pg.tb.Cleanup(func() { _ = os.RemoveAll(dir) })
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return fmt.Errorf("running as root, initdb must run as the user postgres, which is missing: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return err
		}
		runuser, err := lookSbin("runuser")
		if err != nil {
			return fmt.Errorf("running as root needs runuser (util-linux): %w", err)
		}
		pg.asUser = []string{runuser, "-u", "postgres", "--"}
	}
	// --no-sync: a test cluster need not survive a power loss.
	_, err = pg.run("initdb", "-D", pg.dataDir, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync")
	return err
}

// start starts the cluster on a free port; pg_ctl -w returns once it accepts connections.
func (pg *postgres) start() (string, error) {
	port, err := freePort()
	if err != nil {
		return "", err
	}
	logPath := filepath.Join(pg.dir, "postgres.log")
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1", port, pg.dir)
	timeout := strconv.Itoa(int(startTimeout / time.Second))
	if _, err := pg.run("pg_ctl", "-D", pg.dataDir, "-l", logPath, "-o", opts, "-w", "-t", timeout, "start"); err != nil {
		pg.stop() // it may have started after all
		return "", fmt.Errorf("port %d: %w; log: %s", port, err, tail(logPath))
	}
	pg.tb.Cleanup(pg.stop)
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	ready := func() error {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_ = c.Close()
		}
		return err
	}
	if err := waitFor(ready, nil); err != nil {
		return "", fmt.Errorf("port %d: %w; log: %s", port, err, tail(logPath))
	}
	return fmt.Sprintf("postgres://postgres@%s/postgres?sslmode=disable", addr), nil
}

// stop stops the cluster at once: its data is thrown away anyway.
func (pg *postgres) stop() {
	if _, err := os.Stat(filepath.Join(pg.dataDir, "postmaster.pid")); err != nil {
		return // not running
	}
	if _, err := pg.run("pg_ctl", "-D", pg.dataDir, "-m", "immediate", "-w", "-t", "30", "stop"); err != nil {
		pg.tb.Errorf("servers: stop postgres: %v", err)
	}
}

// run runs a server binary (as the postgres user when root) and returns its output.
func (pg *postgres) run(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*startTimeout)
	defer cancel()
	argv := append(append(slices.Clone(pg.asUser), filepath.Join(pg.bin, name)), args...)
	out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s: %w: %s", strings.Join(argv, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// lookSbin finds a system binary on PATH or in the sbin directories, which a
// test's PATH may lack.
func lookSbin(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err == nil {
		return p, nil
	}
	for _, dir := range []string{"/usr/sbin", "/sbin"} {
		if p := filepath.Join(dir, name); isExecutable(p) {
			return p, nil
		}
	}
	return "", err
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}
