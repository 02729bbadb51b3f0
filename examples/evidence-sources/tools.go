package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	_ "modernc.org/sqlite" // the SQLite driver checkpoint/sqlite uses
)

// maxRows bounds what one query returns to the model.
const maxRows = 20

// queryDB is a read-only SQL tool over a SQLite database: live data, the
// db evidence source of seed 004.
type queryDB struct{ db *sql.DB }

// openDesk opens an in-memory help-desk database with a few tickets and
// service errors, then makes its connection read-only.
func openDesk(ctx context.Context) (*sql.DB, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // one connection: an in-memory database lives in it
	stmts := []string{
		`CREATE TABLE tickets (id INTEGER PRIMARY KEY, queue TEXT NOT NULL, status TEXT NOT NULL)`,
		`INSERT INTO tickets (queue, status) VALUES ('billing','open'),('billing','open'),('billing','resolved'),
			('billing','open'),('access','open'),('access','resolved')`,
		`CREATE TABLE service_errors (service TEXT NOT NULL, code TEXT NOT NULL, count INTEGER NOT NULL)`,
		`INSERT INTO service_errors VALUES ('sso','AUDIENCE_MISMATCH',14),('mail','SMTP_TIMEOUT',2)`,
		`PRAGMA query_only = ON`,
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			db.Close()
			return nil, fmt.Errorf("desk database: %w", err)
		}
	}
	return db, nil
}

func (q queryDB) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "query_db", Desc: "Run one read-only SQL SELECT on the help-desk database " +
		"(tables tickets(id, queue, status) and service_errors(service, code, count)) and get the rows as JSON.",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"query": {Type: schema.String, Desc: "one SELECT statement", Required: true},
		})}, nil
}

// InvokableRun runs one SELECT; anything else is refused, and the
// connection is read-only besides.
func (q queryDB) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	var in struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal([]byte(args), &in); err != nil {
		return "", fmt.Errorf("query_db: arguments: %w", err)
	}
	stmt := strings.TrimSpace(in.Query)
	if !strings.HasPrefix(strings.ToUpper(stmt), "SELECT ") || strings.Contains(strings.TrimSuffix(stmt, ";"), ";") {
		return "", errors.New("query_db: query: only one SELECT statement is allowed")
	}
	rows, err := q.db.QueryContext(ctx, stmt)
	if err != nil {
		return "", fmt.Errorf("query_db: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", err
	}
	var out []map[string]any
	for rows.Next() && len(out) < maxRows {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		row := map[string]any{}
		for i, c := range cols {
			row[c] = vals[i]
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// lookupPolicy finds the help desk's written rules by topic: the policy
// evidence source of seed 004.
type lookupPolicy struct{ rules map[string]string }

func deskPolicies() lookupPolicy {
	return lookupPolicy{rules: map[string]string{
		"ticket status": "A ticket is open until an agent marks it resolved; reopened tickets count as open.",
		"sso errors":    "Single sign-on errors are handled by the access team within four working hours.",
	}}
}

func (p lookupPolicy) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "lookup_policy", Desc: "Look up the help desk's written rules on a topic.",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"query": {Type: schema.String, Desc: "the topic, e.g. ticket status", Required: true},
		})}, nil
}

func (p lookupPolicy) InvokableRun(_ context.Context, args string, _ ...tool.Option) (string, error) {
	var in struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal([]byte(args), &in); err != nil {
		return "", fmt.Errorf("lookup_policy: arguments: %w", err)
	}
	if rule, ok := p.rules[strings.ToLower(strings.TrimSpace(in.Query))]; ok {
		return rule, nil
	}
	return "", fmt.Errorf("lookup_policy: no rule on %q", in.Query)
}
