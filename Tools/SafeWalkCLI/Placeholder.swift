enum SafeWalkCLIPlaceholder {}
