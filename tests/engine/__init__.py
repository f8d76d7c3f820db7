"""The widgets' JavaScript engine, checked against the package under Node's test runner."""
