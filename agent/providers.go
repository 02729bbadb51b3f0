package agent

import (
	"context"
	"fmt"
	"reflect"

	"github.com/cloudwego/eino/components/model"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/guards/safety"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/models"
	"github.com/sgrgraph/sgrgraph/models/offline"
	"github.com/sgrgraph/sgrgraph/models/openai"
)

// startEngine starts building the offline engine over the articles when
// the configuration asks for it and no model is given; nil otherwise. With
// read, the articles read into words are taken from it rather than read.
func (a *Agent) startEngine(o Options, docs []kb.Doc, read func() *offline.Reading) func() (*offline.Engine, error) {
	cfg := a.cfg
	if o.Model != nil || cfg.Model.Provider != "offline" {
		return nil
	}
	return started(func() (*offline.Engine, error) {
		eo := offline.Options{Product: cfg.Product, Language: cfg.Language, KBLanguage: cfg.KB.Language}
		if read != nil {
			eo.Reading = read()
		} else {
			eo.Corpus = corpus(docs)
		}
		return offline.New(eo), nil
	})
}

// newModels makes the configured planner and answerer; one model serves
// both unless the configuration gives the roles different endpoints. The
// offline engine is the one started (startEngine).
func (a *Agent) newModels(ctx context.Context, engine func() (*offline.Engine, error)) (planner, answerer model.BaseChatModel, err error) {
	cfg := a.cfg
	if cfg.Model.Provider == "offline" {
		m, err := engine()
		if err != nil {
			return nil, nil, err
		}
		return m, m, nil
	}
	sgr, agent := cfg.Model.For("sgr"), cfg.Model.For("agent")
	if planner, err = newOpenAI(ctx, sgr, cfg.Model); err != nil {
		return nil, nil, err
	}
	if reflect.DeepEqual(sgr, agent) {
		return planner, planner, nil
	}
	answerer, err = newOpenAI(ctx, agent, cfg.Model)
	return planner, answerer, err
}

func newOpenAI(ctx context.Context, e models.Endpoint, m models.Config) (model.BaseChatModel, error) {
	return openai.New(ctx, OpenAIConfig(e, m))
}

// OpenAIConfig is the provider configuration of one endpoint of the model.
func OpenAIConfig(e models.Endpoint, m models.Config) openai.Config {
	c := openai.Config{BaseURL: e.BaseURL, APIKey: e.APIKey, Model: e.Name, MaxTokens: e.MaxTokens,
		Headers: e.Headers, ForcedToolChoice: e.ForcedToolChoice, Retry: m.Retry,
		ConnectTimeout: m.ConnectTimeout, IdleTimeout: m.IdleTimeout}
	if c.BaseURL == "" {
		c.BaseURL = models.DefaultOpenAIBaseURL
	}
	if e.Temperature != nil {
		t := float32(*e.Temperature)
		c.Temperature = &t
	}
	return c
}

// NewGuard is the guard classifier g names, built as a turn's is, for a
// check of the guard on its own (sgrgraph doctor); its errors name g's
// fields, not the guard section.
func NewGuard(g safety.Config) (safety.Classifier, error) { return safety.New(g) }

// newClassifier is the guard the configuration names; its faults name the
// guard section's key.
func newClassifier(cfg config.Config) (safety.Classifier, error) {
	c, err := safety.New(cfg.Guard)
	if err != nil {
		return nil, fmt.Errorf("config: guard.%w", err)
	}
	return c, nil
}
