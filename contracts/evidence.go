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

// ArchitectSpec is the answer contract the Guardian checks a draft against.
type ArchitectSpec struct {
	ResponseFormat   string   `json:"response_format"`
	DomainTerms      []string `json:"domain_terms"`
	ForbiddenContent []string `json:"forbidden_content"`
	RequiredSections []string `json:"required_sections"`
}
