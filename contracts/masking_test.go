package contracts

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// fill sets every string reachable from v to its own path, gives every
// slice one element and every pointer a value, so that a later walk can
// tell which fields a mapping reached.
func fill(v reflect.Value, path string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(path)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), path)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), path+"[]")
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() && f.Tag.Get("json") != "-" {
				fill(v.Field(i), path+"."+f.Name)
			}
		}
	}
}

// untouched lists the paths of strings a walk finds not mapped.
func untouched(v reflect.Value, path string, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		if !strings.HasPrefix(v.String(), "<") {
			*out = append(*out, path)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			untouched(v.Elem(), path, out)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			untouched(v.Index(i), path+"[]", out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() && f.Tag.Get("json") != "-" {
				untouched(v.Field(i), path+"."+f.Name, out)
			}
		}
	}
}

// A field added to the result must be sorted here: free text is mapped,
// identifiers and enum values are not. The test fails until it is.
func TestMapTextReachesEveryFreeTextField(t *testing.T) {
	var r StructuredResult
	fill(reflect.ValueOf(&r).Elem(), "r")
	before := r
	got := r.MapText(func(s string) string { return "<" + s + ">" })

	var kept []string
	untouched(reflect.ValueOf(got), "r", &kept)
	slices.Sort(kept)
	assert.Equal(t, []string{
		"r.Action",
		"r.Articles[].Chunks[].ID",
		"r.Articles[].KBID",
		"r.Articles[].Tags[]",
		"r.Articles[].URL",
		"r.Decisions[].Table",
		"r.Diagnostics.Errors[].Node",
		"r.Diagnostics.ModelCalls[].Node",
		"r.Diagnostics.ModelCalls[].ToolChoice",
		"r.Diagnostics.ModelCalls[].Tools[]",
		"r.Diagnostics.Nodes[].Node",
		"r.Diagnostics.Notes[].Node",
		"r.Diagnostics.Overrides[].Field",
		"r.Diagnostics.Overrides[].Table",
		"r.Diagnostics.Overrides[].TableValue",
		"r.Diagnostics.Retries[].Node",
		"r.Diagnostics.Retries[].Service",
		"r.Evidence[].Ref",
		"r.Evidence[].Source",
		"r.Evidence[].Tool",
		"r.Failure.Cause",
		"r.Failure.Host",
		"r.Failure.Node",
		"r.Failure.Service",
		"r.Moderation.Categories[]",
		"r.Moderation.Level",
		"r.Moderation.Provider",
		"r.Moderation.Refusal",
		"r.Plan.Action",
		"r.Plan.AnswerLanguage",
		"r.Plan.RequestType",
		"r.QueryTraces[].Articles[].Chunks[].ID",
		"r.QueryTraces[].Articles[].KBID",
		"r.QueryTraces[].Articles[].Tags[]",
		"r.QueryTraces[].Articles[].URL",
		"r.QueryTraces[].Tool", "r.Review.Decision", "r.Review.Reviewer",
		"r.SessionID",
		"r.UI[].Type",
		"r.Verdict.RequiredActions[]",
		"r.Verdict.RiskLevel",
		"r.Verdict.SetAside[].KBID",
		"r.Verdict.SetAside[].Ref",
		"r.Verdict.SetAside[].Source",
		"r.Verdict.SetAside[].Tool",
		"r.Verdict.Verdict",
	}, kept)
	assert.Equal(t, "r.Answer", before.Answer, "the original is left as it was")
	assert.Equal(t, "r.Evidence[].Snippet", before.Evidence[0].Snippet)
	assert.Equal(t, "r.Diagnostics.Notes[].Message", before.Diagnostics.Notes[0].Message)
	assert.Equal(t, "r.Plan.UserIntent", before.Plan.UserIntent)
	assert.Equal(t, "r.QueryTraces[].Articles[].Chunks[].Text", before.QueryTraces[0].Articles[0].Chunks[0].Text)
}

func TestMapTextSharesNothingMutable(t *testing.T) {
	var r StructuredResult
	fill(reflect.ValueOf(&r).Elem(), "r")
	got := r.MapText(func(s string) string { return s })
	got.Verdict.RequiredActions[0] = "changed"
	got.Moderation.Categories[0] = "changed"
	got.Articles[0].Tags[0] = "changed"
	got.Diagnostics.Nodes[0].Node = "changed"
	got.Diagnostics.ModelCalls[0].Tools[0] = "changed"
	assert.Equal(t, RequiredAction("r.Verdict.RequiredActions[]"), r.Verdict.RequiredActions[0])
	assert.Equal(t, "r.Moderation.Categories[]", r.Moderation.Categories[0])
	assert.Equal(t, "r.Articles[].Tags[]", r.Articles[0].Tags[0])
	assert.Equal(t, "r.Diagnostics.Nodes[].Node", r.Diagnostics.Nodes[0].Node)
	assert.Equal(t, "r.Diagnostics.ModelCalls[].Tools[]", r.Diagnostics.ModelCalls[0].Tools[0])
}

func TestMapTextKeepsNilAndEmptyApart(t *testing.T) {
	r := StructuredResult{Evidence: []EvidenceItem{}}
	got := r.MapText(strings.ToUpper)
	assert.NotNil(t, got.Evidence)
	assert.Empty(t, got.Evidence)
	assert.Nil(t, got.QueryTraces)
}

func TestEventMapText(t *testing.T) {
	var ev Event
	fill(reflect.ValueOf(&ev).Elem(), "ev")
	got := ev.MapText(func(s string) string { return "<" + s + ">" })
	var kept []string
	untouched(reflect.ValueOf(got), "ev", &kept)
	slices.Sort(kept)
	assert.Equal(t, []string{"ev.Kind", "ev.Node", "ev.Tool", "ev.UI.Type", "ev.Verdict.RequiredActions[]",
		"ev.Verdict.RiskLevel", "ev.Verdict.SetAside[].KBID", "ev.Verdict.SetAside[].Ref", "ev.Verdict.SetAside[].Source",
		"ev.Verdict.SetAside[].Tool", "ev.Verdict.Verdict"}, kept)
	assert.Equal(t, "ev.UI.Content", ev.UI.Content, "the original is left as it was")
}
