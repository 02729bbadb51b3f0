package servers

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// browserExit bounds how long the processes of a killed browser may take
// to end.
const browserExit = 10 * time.Second

// browserGroup is what the browsers started with one ChromiumOptions are,
// each the leader of a process group of its own.
type browserGroup struct {
	mu   sync.Mutex
	cmds []*exec.Cmd
}

// prepare is chromedp's ModifyCmdFunc: what chromedp does when none is
// given (the browser is killed when the test process dies), and a process
// group of the browser's own, which its helper processes share.
func (g *browserGroup) prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	g.mu.Lock()
	defer g.mu.Unlock()
	g.cmds = append(g.cmds, cmd)
}

// stop kills every process of the browsers' groups and waits, up to
// within, until none runs. A process that has ended but that no one has
// reaped (a zombie: a container's first process may never reap) counts as
// ended: it writes nothing more.
func (g *browserGroup) stop(within time.Duration) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	deadline := time.Now().Add(within)
	for _, cmd := range g.cmds {
		if cmd.Process == nil {
			continue // it did not start
		}
		group := cmd.Process.Pid
		if err := syscall.Kill(-group, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			return fmt.Errorf("kill process group %d: %w", group, err)
		}
		for {
			running, err := runningInGroup(group)
			if err != nil {
				return err
			}
			if len(running) == 0 {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("processes %v of group %d still run %s after SIGKILL", running, group, within)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return nil
}

// runningInGroup lists the processes of a process group that have not
// ended, from /proc.
func runningInGroup(group int) ([]int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	var running []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue // not a process
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // it ended since the listing
		}
		state, pgrp, ok := parseStat(stat)
		if ok && pgrp == group && state != 'Z' && state != 'X' {
			running = append(running, pid)
		}
	}
	return running, nil
}

// parseStat reads the state and the process group of /proc/<pid>/stat:
// "pid (comm) state ppid pgrp ...", where comm may hold spaces and ")".
func parseStat(stat []byte) (state byte, pgrp int, ok bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, false
	}
	fields := bytes.Fields(stat[i+1:])
	if len(fields) < 3 || len(fields[0]) != 1 {
		return 0, 0, false
	}
	pgrp, err := strconv.Atoi(string(fields[2]))
	if err != nil {
		return 0, 0, false
	}
	return fields[0][0], pgrp, true
}
