import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CPU seconds (user + system) this process has used so far. The publishers run in this
/// process in both phases, so the difference between the phases is what ingest costs.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return s(usage.ru_utime) + s(usage.ru_stime)
}
