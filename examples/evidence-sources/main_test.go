package main

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func Example() {
	if err := run(context.Background(), os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// > How many billing tickets are open?
	//   db evidence from query_db: SELECT count(*) AS open FROM tickets WHERE queue = 'billing' AND status = 'open' → [{"open":3}]
	//   policy evidence from lookup_policy: ticket status → A ticket is open until an agent marks it resolved; reopened tickets count as open.
	//   STATUS_METRIC: PASS low []
	//   3 billing tickets are open; a ticket is open until an agent marks it resolved.
	// > Why do users get AUDIENCE_MISMATCH at sign-in?
	//   db evidence from query_db: SELECT code, count FROM service_errors WHERE service = 'sso' → [{"code":"AUDIENCE_MISMATCH","count":14}]
	//   policy evidence from lookup_policy: sso errors → Single sign-on errors are handled by the access team within four working hours.
	//   TROUBLESHOOTING: PASS low []
	//   Sign-in failed 14 times with AUDIENCE_MISMATCH; the access team handles it within four working hours.
	// > How many billing tickets are open?
	//   policy evidence from lookup_policy: ticket status → A ticket is open until an agent marks it resolved; reopened tickets count as open.
	//   db evidence from query_db: SELECT count(*) AS open FROM tickets WHERE queue = 'billing' AND status = 'open' → [{"open":3}]
	//   STATUS_METRIC: RETRY on rule 3
	//   STATUS_METRIC: PASS low []
	//   3 billing tickets are open.
}

// query_db runs one SELECT on a read-only connection; anything else is
// refused with an error naming the argument.
func TestQueryDBIsReadOnly(t *testing.T) {
	ctx := context.Background()
	db, err := openDesk(ctx)
	require.NoError(t, err)
	defer db.Close()
	q := queryDB{db: db}
	out, err := q.InvokableRun(ctx, `{"query":"SELECT count(*) AS n FROM tickets"}`)
	require.NoError(t, err)
	assert.Equal(t, `[{"n":6}]`, out)
	for _, bad := range []string{
		`{"query":"DELETE FROM tickets"}`,
		`{"query":"SELECT 1; DELETE FROM tickets"}`,
	} {
		_, err := q.InvokableRun(ctx, bad)
		assert.ErrorContains(t, err, "query_db: query: only one SELECT statement is allowed", bad)
	}
	_, err = q.InvokableRun(ctx, `{"query":"SELECT * FROM tickets WHERE id IN (SELECT id FROM tickets) AND 0 = (SELECT count(*) FROM (SELECT 1))"}`)
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, "UPDATE tickets SET status = 'open'")
	assert.Error(t, err, "the connection itself is read-only")
	_, err = q.InvokableRun(ctx, `not json`)
	assert.ErrorContains(t, err, "query_db: arguments")
	_, err = deskPolicies().InvokableRun(ctx, `{"query":"holidays"}`)
	assert.ErrorContains(t, err, `lookup_policy: no rule on "holidays"`)
}
