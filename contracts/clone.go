package contracts

import "slices"

// Clone copies the state for a parallel branch of a turn. Every list is
// copied, so a branch's appends stay its own; the items in the lists and
// the records behind the pointers are shared, and nodes replace them
// rather than change them in place.
func (s *ChatState) Clone() *ChatState {
	c := *s
	c.Messages = slices.Clone(s.Messages)
	c.UI = slices.Clone(s.UI)
	c.Evidence = slices.Clone(s.Evidence)
	c.QueryTraces = slices.Clone(s.QueryTraces)
	c.Articles = slices.Clone(s.Articles)
	c.SetAside = slices.Clone(s.SetAside)
	c.Made = slices.Clone(s.Made)
	c.ToolResults = slices.Clone(s.ToolResults)
	sp := &c.Spec
	sp.DomainTerms, sp.ForbiddenContent, sp.RequiredSections = slices.Clone(sp.DomainTerms), slices.Clone(sp.ForbiddenContent), slices.Clone(sp.RequiredSections)
	d := &c.Diagnostics
	d.Nodes, d.ModelCalls, d.Overrides = slices.Clone(d.Nodes), slices.Clone(d.ModelCalls), slices.Clone(d.Overrides)
	d.Errors, d.Notes, d.Retries = slices.Clone(d.Errors), slices.Clone(d.Notes), slices.Clone(d.Retries)
	return &c
}
