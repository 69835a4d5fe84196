// The tracker lists' types are the rules' own to every module that uses the rules.
@_exported import TrackerRules
