package openai

import (
	"errors"

	einoopenai "github.com/cloudwego/eino-ext/components/model/openai"
	goopenai "github.com/meguminnnnnnnnn/go-openai"
)

// statusError is a call the server answered with an error status, every
// try: it says the status (models.StatusError) without the client's types.
type statusError struct {
	status int
	err    error
}

func (e *statusError) Error() string   { return e.err.Error() }
func (e *statusError) Unwrap() error   { return e.err }
func (e *statusError) HTTPStatus() int { return e.status }

// withStatus marks err with the HTTP status the client read, if it read one.
func withStatus(err error) error {
	var eino *einoopenai.APIError // eino-ext's copy of an error body it read
	var api *goopenai.APIError
	var req *goopenai.RequestError // a status whose body was not an error object
	switch {
	case errors.As(err, &eino) && eino.HTTPStatusCode > 0:
		return &statusError{status: eino.HTTPStatusCode, err: err}
	case errors.As(err, &api) && api.HTTPStatusCode > 0:
		return &statusError{status: api.HTTPStatusCode, err: err}
	case errors.As(err, &req) && req.HTTPStatusCode > 0:
		return &statusError{status: req.HTTPStatusCode, err: err}
	}
	return err
}
