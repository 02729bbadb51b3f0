// Command evidence-sources shows evidence from other sources than the
// documentation: agent.Options.Tools gives the agent a read-only SQL tool
// (query_db, over an in-memory SQLite help-desk database) declared as db
// evidence and a policy lookup (lookup_policy) declared as policy evidence.
// With them, the strict source rules hold as written: a live status needs
// db evidence and may not rest on the documentation, troubleshooting needs
// db (or graph) evidence, and two kinds of source are asked of every
// QUALITY answer. A status first answered from the documentation is sent
// back (REMOVE_DOC_EVIDENCE, USE_DB_ONLY) and passes on the database.
//
// A scripted model plays the planner and the agent, so the run is the same
// every time and shows the rules rather than a model's choices; any chat
// model calls the tools the same way. Run it with
// `go run ./examples/evidence-sources`.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "evidence-sources:", err)
		os.Exit(1)
	}
}

// plan is the planner's analysis of a question of the given request type.
func plan(rt contracts.RequestType, question string) sgrtest.Reply {
	return sgrtest.ToolCall("analyse_user_request", fmt.Sprintf(`{"spam_score":0.05,"spam_reason":"help-desk question",`+
		`"user_intent":%q,"topic":"help desk","category":"support","request_type":%q,"answer_language":"en",`+
		`"subqueries":[%q],"intent_confidence":0.9,"action":"normal"}`, question, rt, question))
}

func call(id, name, query string) schema.ToolCall {
	return schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: fmt.Sprintf(`{"query":%q}`, query)}}
}

func run(ctx context.Context, w io.Writer) error {
	db, err := openDesk(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	const status, failure = "How many billing tickets are open?", "Why do users get AUDIENCE_MISMATCH at sign-in?"
	model := sgrtest.NewScriptedModel(
		// A live status from the database, with the rule that defines it.
		plan(contracts.RequestStatusMetric, status),
		sgrtest.ToolCalls(call("1", "query_db", "SELECT count(*) AS open FROM tickets WHERE queue = 'billing' AND status = 'open'"),
			call("2", "lookup_policy", "ticket status")),
		sgrtest.Text("3 billing tickets are open; a ticket is open until an agent marks it resolved."),
		// A failure, from the error counts and the rule on who handles it.
		plan(contracts.RequestTroubleshoot, failure),
		sgrtest.ToolCalls(call("3", "query_db", "SELECT code, count FROM service_errors WHERE service = 'sso'"),
			call("4", "lookup_policy", "sso errors")),
		sgrtest.Text("Sign-in failed 14 times with AUDIENCE_MISMATCH; the access team handles it within four working hours."),
		// The same status answered from the documentation first: the
		// Guardian asks for a retry on live data only, which passes.
		plan(contracts.RequestStatusMetric, status),
		sgrtest.ToolCalls(call("5", "search_kb", "open tickets"), call("6", "lookup_policy", "ticket status")),
		sgrtest.Text("The documentation says tickets are listed in the web chat."),
		sgrtest.ToolCall("query_db", `{"query":"SELECT count(*) AS open FROM tickets WHERE queue = 'billing' AND status = 'open'"}`),
		sgrtest.Text("3 billing tickets are open."),
	)
	cache, err := os.MkdirTemp("", "evidence-sources")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cache)
	cfg := config.Default()
	cfg.KB.CacheDir = cache
	// The strict numbers: two kinds of source and a mean confidence of
	// 0.6 on the QUALITY track; one retry.
	cfg.Guardian.QualityMinSources, cfg.Guardian.MinAvgConfidence, cfg.Tables.MaxRetries = 2, 0.6, 1
	a, err := agent.New(ctx, cfg, agent.Options{Model: model, Tools: []agent.Tool{
		{InvokableTool: queryDB{db: db}, Source: contracts.SourceDB},
		{InvokableTool: deskPolicies(), Source: contracts.SourcePolicy},
	}})
	if err != nil {
		return err
	}
	defer a.Close()
	for i, q := range []string{status, failure, status} {
		res, err := a.Run(ctx, agent.Turn{SessionID: fmt.Sprint("desk-", i), Message: q})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "> %s\n", q)
		docs := 0
		for _, e := range res.Evidence {
			if e.Source == contracts.SourceDoc {
				docs++ // articles of the documentation; which ones depends on its text
				continue
			}
			fmt.Fprintf(w, "  %s evidence from %s → %s\n", e.Source, e.Ref, e.Snippet)
		}
		if docs > 0 {
			fmt.Fprintf(w, "  doc evidence: %d articles\n", docs)
		}
		for _, d := range res.Decisions {
			if d.Table == "DT-005" && d.Outputs["verdict"] == "RETRY" {
				fmt.Fprintf(w, "  %s: RETRY on rule %d\n", res.Plan.RequestType, d.Rule)
			}
		}
		fmt.Fprintf(w, "  %s: %s %s %v\n", res.Plan.RequestType, res.Verdict.Verdict, res.Verdict.RiskLevel, res.Verdict.Reasons)
		fmt.Fprintf(w, "  %s\n", strings.SplitN(res.Answer, "\n", 2)[0])
	}
	return nil
}
