package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version and commit, when set by the linker, take the place of what the
// build recorded, for builds that record none: a release script, go run, a
// build under GOFLAGS=-buildvcs=false (as .ci/run does) or from a tree
// without its .git directory:
//
//	go build -ldflags "-X main.version=v0.3.0 -X main.commit=$(git rev-parse HEAD)" ./cmd/sgrgraph
var (
	version string
	commit  string
)

// modulePath is the module the command belongs to, looked up among the
// dependencies when the binary was built from another module.
const modulePath = "github.com/sgrgraph/sgrgraph"

// versionInfo is what `sgrgraph --version` and `sgrgraph version` print
// (buildVersion, in mcp.go, is the bare version the MCP handshake and the
// telemetry resource give).
type versionInfo struct {
	Version  string // the module's version: a tag, a pseudo-version, or (devel)
	Commit   string // the VCS revision, or "unknown"
	Modified bool   // the work tree had changes the commit does not hold
	Go       string // the toolchain that built the binary
}

// readVersion takes the module's version and commit from the linker's
// values when set and from the build info otherwise. The go command stamps
// the VCS revision (vcs.revision, vcs.modified) only when go build or go
// install builds the main package inside a checkout with -buildvcs on (its
// default); go run and go test stamp none, and the commit is "unknown". Main.Version is a tag or pseudo-version when
// the go command could derive one (go install ...@v1.2.3, or a build in a
// checkout) and (devel) otherwise.
func readVersion(info *debug.BuildInfo, ok bool, ldVersion, ldCommit string) versionInfo {
	v := versionInfo{Version: "(devel)", Commit: "unknown", Go: runtime.Version()}
	if ok && info != nil {
		if info.GoVersion != "" {
			v.Go = info.GoVersion
		}
		mod := &info.Main
		if mod.Path != modulePath {
			for _, dep := range info.Deps {
				if dep.Path == modulePath {
					mod = dep
					break
				}
			}
		}
		if mod.Replace != nil && mod.Replace.Version != "" {
			mod = mod.Replace
		}
		if mod.Version != "" {
			v.Version = mod.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if ldVersion != "" {
		v.Version = ldVersion
	}
	if ldCommit != "" {
		v.Commit, v.Modified = ldCommit, false
	}
	return v
}

// String is the line printed: "(devel), commit unknown, go1.26.8" or
// "v0.0.0-20260101120000-0123456789ab+dirty, commit 0123456789ab… (modified), go1.26.8".
func (v versionInfo) String() string {
	s := fmt.Sprintf("%s, commit %s", v.Version, v.Commit)
	if v.Modified {
		s += " (modified)"
	}
	return s + ", " + v.Go
}

// currentVersion is this binary's.
func currentVersion() versionInfo {
	info, ok := debug.ReadBuildInfo()
	return readVersion(info, ok, version, commit)
}

// newVersionCmd prints what --version prints. It needs no configuration,
// so a broken one does not keep it from running.
func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:               "version",
		Short:             "Print the module version and the commit the binary was built from",
		Args:              cobra.NoArgs,
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), "sgrgraph", currentVersion())
			return err
		},
	}
}
