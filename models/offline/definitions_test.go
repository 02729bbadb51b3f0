package offline

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDefinitionsAreFoundByTheNameTheyDefine(t *testing.T) {
	corpus := []string{
		"etcd API guarantees\n\netcd is a consistent and durable key value store. The store is replicated.",
		"Charts\n\nA library chart is a type of Helm chart that defines chart primitives. Use it in other charts.",
		"Чарты\n\nБиблиотечный чарт — это чарт, который определяет общие шаблоны.",
		"Later\n\netcd is a distributed system that says it again later.",
		"Not a definition\n\nThe cluster is up. Members are a few.",
	}
	defs := definitions(corpus)
	for name, want := range map[string]string{
		"etcd":              "etcd is a consistent and durable key value store.", // the first of two, in the articles' order
		"library chart":     "A library chart is a type of Helm chart that defines chart primitives.",
		"библиотечный чарт": "Библиотечный чарт — это чарт, который определяет общие шаблоны.",
		"cluster":           "", // "is up" says how it is, not what
		"members":           "",
	} {
		assert.Equal(t, want, defs[name], name)
	}
}

func TestDefinesMatchesTheSentenceThatSaysWhatTheNameIs(t *testing.T) {
	for _, tc := range []struct {
		sentence, name string
		want           bool
	}{
		{"etcd is a consistent and durable key value store.", "etcd", true},
		{"A library chart is a type of Helm chart.", "library chart", true},
		{"Библиотечный чарт — это чарт.", "библиотечный чарт", true},
		{"etcd stores keys in a B-tree.", "etcd", false},
		{"The etcd cluster is a group of members.", "etcd", false}, // about the cluster
		{"etcd is a consistent store.", "", false},                 // no question asks
	} {
		assert.Equal(t, tc.want, defines(tc.sentence, tc.name), tc.sentence)
	}
}

func TestADefinitionQuestionSearchesForTheSentenceThatDefines(t *testing.T) {
	e := New(Options{Corpus: []string{
		"etcd API\n\nThe API of etcd serves keys. etcd serves watches.",
		"etcd API guarantees\n\netcd is a consistent and durable key value store.",
		"etcd features\n\nThe features of etcd come in stages.",
	}, Product: "etcd"})
	for _, tc := range []struct {
		question string
		want     string // a subquery, or "" for none beyond the question's own
	}{
		{"What is etcd?", "etcd consistent durable key value store"},
		{"Что такое etcd?", "etcd consistent durable key value store"}, // "такое" is no word of the name
		{"How do I watch a key in etcd?", ""},
	} {
		t.Run(tc.question, func(t *testing.T) {
			subqueries := e.analyse(tc.question, "").plan.Subqueries
			if tc.want == "" {
				assert.NotContains(t, strings.Join(subqueries, "|"), "durable")
				return
			}
			assert.Contains(t, subqueries, tc.want)
		})
	}
}

func TestADefinitionOpensTheAnswer(t *testing.T) {
	articles := []found{
		{id: "api", title: "etcd API", chunks: []searchChunk{{Heading: "etcd API", Text: "The API of etcd serves keys. etcd serves watches on keys."}}},
		{id: "guarantees", title: "etcd API guarantees", chunks: []searchChunk{{Heading: "etcd API guarantees", Text: "etcd is a consistent and durable key value store."}}},
	}
	ps := pick("What is etcd?", articles, "", nowhere, nowhere)
	if assert.NotEmpty(t, ps) {
		assert.Equal(t, "etcd is a consistent and durable key value store.", ps[0].text)
	}
}
