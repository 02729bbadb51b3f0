package tests

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/sgrgraph/sgrgraph/"

// layers says which project packages each package may import, and whether it
// may import eino at all. Lower layers know nothing of the ones above: graph
// and tables are the framework, and the default turn's tables (decisions,
// DT-001 … DT-006) sit above them with its nodes.
var layers = map[string]struct {
	allowed []string
	eino    bool
}{
	"contracts":     {[]string{"tables"}, true}, // eino's schema.Message, and tables.Decisions
	"tables":        {nil, false},
	"decisions":     {[]string{"tables"}, false},
	"config":        {[]string{"checkpoint", "contracts", "decisions", "guards", "guards/safety", "kb", "models", "templates"}, false}, // each package owns its section
	"guards":        {[]string{"contracts"}, false},
	"guards/safety": {[]string{"contracts", "eval/split", "outbound"}, false}, // eval/split: training reads the development parts of the guard's sets
	// The commands `go generate ./guards/safety` runs.
	"guards/safety/internal/train":        {[]string{"guards/safety"}, false},
	"guards/safety/internal/parselexicon": {[]string{"guards/safety"}, false},
	"kb":                                  {[]string{"contracts", "outbound"}, false}, // outbound: the embeddings and rerank endpoints' retries
	"tools":                               {[]string{"contracts", "kb"}, true},
	"events":                              {[]string{"contracts"}, true},
	"models":                              {[]string{"contracts", "outbound"}, true}, // a failed call's Failure is a contract
	"graph":                               {[]string{"checkpoint", "contracts", "tables", "events", "outbound"}, true},
	// Checkpoint stores know nothing of graphs: any program may keep its threads there.
	"checkpoint":                 {[]string{"checkpoint/internal/blob", "checkpoint/internal/rules"}, false},
	"checkpoint/internal/rules":  {[]string{"internal/storeopen"}, false},
	"internal/storeopen":         {nil, false}, // the SQLite, Postgres and Redis openings the stores share
	"checkpoint/internal/blob":   {nil, false}, // states cut into pieces kept once per thread
	"checkpoint/internal/record": {[]string{"checkpoint", "checkpoint/internal/blob", "checkpoint/internal/rules"}, false},
	"checkpoint/internal/driven": {[]string{"checkpoint", "checkpoint/internal/blob", "checkpoint/internal/record", "checkpoint/internal/rules"}, false}, // the rules every durable store keeps, in front of its storage code
	"checkpoint/checkpointtest":  {[]string{"checkpoint"}, false},
	"checkpoint/sqlite":          {[]string{"checkpoint", "checkpoint/internal/blob", "checkpoint/internal/driven", "checkpoint/internal/record", "checkpoint/internal/rules", "internal/storeopen"}, false},
	"checkpoint/postgres":        {[]string{"checkpoint", "checkpoint/internal/blob", "checkpoint/internal/driven", "checkpoint/internal/record", "checkpoint/internal/rules", "internal/storeopen"}, false},
	"checkpoint/redis":           {[]string{"checkpoint", "checkpoint/internal/blob", "checkpoint/internal/driven", "checkpoint/internal/record", "checkpoint/internal/rules", "internal/storeopen"}, false},
	// Node-cache stores know nothing of graphs but their interface's limits.
	"graph/cachestore":           {[]string{"internal/storeopen"}, false}, // the default bound of a call
	"graph/cachestore/cachetest": {[]string{"graph", "graph/cachestore"}, false},
	"graph/cachestore/sqlite":    {[]string{"graph/cachestore", "internal/storeopen"}, false},
	"graph/cachestore/postgres":  {[]string{"graph/cachestore", "internal/storeopen"}, false},
	"graph/cachestore/redis":     {[]string{"graph/cachestore", "internal/storeopen"}, false},
	"sgrtest/servers":            {nil, false},
	"sgrtest/retrievaltest":      {nil, false}, // a scripted embeddings and rerank server
	"sgrtest/filetest":           {nil, false}, // edits of the files a test wrote, which fail when the text is missing
	// Plain functions over the state; the agent loop's tool calls and routing are prebuilt's.
	"nodes": {[]string{"contracts", "events", "guards", "guards/safety", "kb", "models", "prebuilt", "tables", "templates", "tools"}, true},
	// Examples use the public framework only, as a program outside the module would.
	"examples/custom-state":             {[]string{"graph", "tables", "examples/internal/exampletest"}, true},
	"examples/map-reduce":               {[]string{"graph", "examples/internal/exampletest"}, true},
	"examples/parallel":                 {[]string{"graph", "examples/internal/exampletest"}, true},
	"examples/retry":                    {[]string{"graph", "examples/internal/exampletest"}, true},
	"examples/interrupt":                {[]string{"graph", "checkpoint/sqlite", "examples/internal/exampletest"}, true},
	"examples/stream":                   {[]string{"graph", "examples/internal/exampletest"}, true},
	"examples/queue":                    {[]string{"agent", "config", "contracts", "runs", "examples/internal/exampletest", "sgrtest/servers"}, false},
	"examples/evidence-sources":         {[]string{"agent", "config", "contracts", "sgrtest"}, true},
	"examples/mcp-tools":                {[]string{"mcptools"}, false},
	"examples/tools":                    {[]string{"checkpoint", "graph", "prebuilt", "sgrtest", "examples/internal/exampletest"}, true},
	"examples/supervisor":               {[]string{"agent", "config", "graph", "prebuilt", "examples/internal/exampletest"}, true},
	"examples/internal/exampletest":     {nil, false},
	"examples/memory":                   {[]string{"checkpoint", "graph", "memory", "memory/sqlite", "examples/internal/exampletest"}, false},
	"memory":                            {[]string{"memory/internal/rules", "memory/internal/text"}, false}, // no graph: nodes get a store through the run context
	"memory/internal/rules":             {nil, false},
	"memory/internal/text":              {nil, false}, // the knowledge base's analyzers, from bleve itself
	"memory/memorytest":                 {[]string{"memory"}, false},
	"memory/sqlite":                     {[]string{"memory", "memory/internal/rules"}, false},
	"memory/postgres":                   {[]string{"memory", "memory/internal/rules"}, false},
	"memory/redis":                      {[]string{"memory", "memory/internal/rules"}, false},
	"sgrtest":                           {[]string{"contracts", "events", "graph", "models"}, true},
	"models/offline":                    {[]string{"contracts", "models", "templates", "models/offline/internal/textmodel"}, true},
	"models/offline/internal/textmodel": {nil, false},                                           // the trained spam model
	"models/offline/internal/spamtrain": {[]string{"models/offline/internal/textmodel"}, false}, // go generate trains it
	"docs":                              {nil, false},
	"outbound":                          {nil, false},
	"models/openai":                     {[]string{"models", "outbound"}, true},
	"sgrtest/openaitest":                {nil, true},
	"mcptools":                          {[]string{"guards/safety", "outbound"}, true}, // tools of MCP servers as eino tools
	"mcptools/mcptest":                  {nil, false},                                  // real MCP servers for tests: npm's
	"prebuilt":                          {[]string{"graph", "guards/safety"}, true},    // LangGraph's prebuilt agent over any messages state: graph and eino only, results screened
	"agent": {[]string{"checkpoint", "checkpoint/postgres", "checkpoint/redis", "checkpoint/sqlite", "config", "contracts", "decisions", "docs", "events", "graph", "guards", "guards/safety", "kb", "models",
		"mcptools", "memory", "memory/postgres", "memory/redis", "memory/sqlite", "models/offline", "prebuilt", "models/openai", "nodes", "outbound", "tables", "templates", "tools"}, true},
	"templates":    {[]string{"contracts"}, false},
	"batch":        {[]string{"agent", "contracts", "templates"}, false},
	"runs":         {[]string{"agent", "contracts"}, true},                                 // turns queued for workers (a Spec holds eino messages)
	"server":       {[]string{"agent", "checkpoint", "contracts", "models", "runs"}, true}, // the default turn over HTTP; endpoints reach the turn through agent (layers_endpoints_test.go)
	"mcpserver":    {[]string{"agent", "checkpoint", "contracts", "models"}, false},        // the default turn over MCP; checkpoint: whether a conversation ran
	"webui":        {[]string{"templates"}, false},                                         // the web chat: static files and their labels
	"eval":         {[]string{"contracts", "eval/split"}, false},                           // measurement only: sets, metrics, report; labels are the contracts' actions
	"eval/split":   {nil, false},                                                           // which part of its set a row is in: one hash, shared with the guard's training
	"eval/runner":  {[]string{"agent", "config", "contracts", "eval", "nodes"}, false},     // the sets' items through the default turn
	"cmd/sgrgraph": {[]string{"agent", "batch", "checkpoint", "contracts", "decisions", "docs", "eval", "eval/runner", "mcpserver", "runs", "server", "studio", "tables", "config", "kb", "models", "models/openai", "templates", "tools", "webui"}, true},
	"studio":       {[]string{"agent", "checkpoint", "graph", "nodes", "tables"}, false}, // a graph's runs and checkpoints in a page
}

func TestLayers(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	t.Run("every package is listed", func(t *testing.T) {
		require.NoError(t, filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			if rel == "tests" || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if p, err := build.Default.ImportDir(path, 0); err == nil && len(p.GoFiles) > 0 && rel != "." {
				_, listed := layers[filepath.ToSlash(rel)]
				assert.True(t, listed, "package %s has no layer: add it to the layers with what it may import", rel)
			}
			return nil
		}))
	})
	for pkg, rule := range layers {
		t.Run(pkg, func(t *testing.T) {
			dir := filepath.Join(root, pkg)
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("package %s is listed in the layers but missing: %v", pkg, err)
			}
			p, err := build.Default.ImportDir(dir, 0)
			require.NoError(t, err)
			for _, imp := range p.Imports {
				if strings.HasPrefix(imp, module) {
					assert.Contains(t, rule.allowed, strings.TrimPrefix(imp, module), "%s must not import %s", pkg, imp)
				}
				if strings.HasPrefix(imp, "github.com/cloudwego/") {
					assert.True(t, rule.eino, "%s must not import eino (%s)", pkg, imp)
				}
			}
			if pkg == "contracts" {
				for _, imp := range p.Imports {
					if strings.HasPrefix(imp, "github.com/cloudwego/") {
						assert.Equal(t, "github.com/cloudwego/eino/schema", imp)
					}
				}
			}
		})
	}
}

// TestFrameworkNamesNoTurnTable: the framework's code (graph, tables)
// names none of the default turn's tables, nodes or table columns: those
// live in decisions and nodes, which import the framework, never the other
// way round.
func TestFrameworkNamesNoTurnTable(t *testing.T) {
	for _, pkg := range []string{"graph", "tables"} {
		files, err := filepath.Glob(filepath.Join("..", pkg, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files, pkg)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			for _, word := range []string{"DT-00", "guardian_verify", "sgr_plan", "contract_check", "spam_score", "guardian_level"} {
				assert.NotContains(t, string(data), word, "%s names the default turn's %s", f, word)
			}
		}
	}
}
