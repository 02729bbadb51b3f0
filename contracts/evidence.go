package contracts

// EvidenceSource names the kind of store a piece of evidence came from.
type EvidenceSource string

// The evidence sources of seed 004 (graph stands for a knowledge graph such as neo4j).
const (
	SourceDoc    EvidenceSource = "doc"
	SourceDB     EvidenceSource = "db"
	SourcePolicy EvidenceSource = "policy"
	SourceGraph  EvidenceSource = "graph"
)

// EvidenceItem is one tool result the answer may rest on.
type EvidenceItem struct {
	Source     EvidenceSource `json:"source"`
	Ref        string         `json:"ref"`
	Snippet    string         `json:"snippet"`
	Confidence float64        `json:"confidence"`
	// Tool and Query say which call produced it.
	Tool  string `json:"tool,omitempty"`
	Query string `json:"query,omitempty"`
	// Attempt is the turn's attempt (its retry count) that first found
	// this item: 0 before any Guardian RETRY.
	Attempt int `json:"attempt,omitempty"`
}

// SetAside is a piece of retrieved text the Guardian kept out of the
// evidence: a knowledge-base article or a tool's answer that gives the
// assistant orders (an indirect prompt injection). Retrieved text is data,
// never instructions, so such a piece is neither shown to the model nor
// cited in an answer; this record says which one it was and why.
type SetAside struct {
	Source EvidenceSource `json:"source"`
	// Ref is what its evidence item's Ref would have been: the article's
	// URL or kb_id, or the tool's name and query.
	Ref   string `json:"ref"`
	KBID  string `json:"kb_id,omitempty"`
	Title string `json:"title,omitempty"`
	Tool  string `json:"tool,omitempty"`
	Query string `json:"query,omitempty"`
	// Reason names the rule and the words that fired it:
	// prompt_injection(jailbreak.ignore-instructions: "ignore your instructions").
	Reason string `json:"reason"`
	// Sentence is the sentence that holds them, cut short, for the person
	// who has to find and mend the article.
	Sentence string `json:"sentence,omitempty"`
	// Attempt is the turn's attempt that first found it.
	Attempt int `json:"attempt,omitempty"`
}

// ArchitectSpec is the answer contract the Guardian checks a draft against.
type ArchitectSpec struct {
	ResponseFormat   string   `json:"response_format"`
	DomainTerms      []string `json:"domain_terms"`
	ForbiddenContent []string `json:"forbidden_content"`
	RequiredSections []string `json:"required_sections"`
}
