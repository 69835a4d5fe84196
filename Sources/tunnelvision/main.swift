import Foundation
import TunnelVisionCLI

setlocale(LC_NUMERIC, "C")
// Private by default: the store, its captures, bundles, reports and temporary files hold a health
// app's traffic, so nothing this process creates is readable by others (0700 / 0600).
umask(0o077)
exit(TunnelVisionCommand.run(Array(CommandLine.arguments.dropFirst()), context: .process()))
