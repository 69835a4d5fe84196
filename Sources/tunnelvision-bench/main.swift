import Foundation
import TunnelVisionBench
import TunnelVisionCLI

setlocale(LC_NUMERIC, "C")
umask(0o077)
exit(
  TunnelVisionCommand.run(
    Array(CommandLine.arguments.dropFirst()), context: .process(), root: BenchCommand.root))
