// Test support for SpotlightIndexTests (never shipped): runs `LocalIndex.importFile`, the code
// behind `spotcheck index import`, and after N records says so on stderr and waits to be killed,
// inside the open transaction.
//
//     IndexImportStaller INDEX FILE NAME CLIENT-STATE N
import Foundation
import SpotlightIndex

let arguments = CommandLine.arguments
guard arguments.count == 6, let stallAfter = Int(arguments[5]) else {
    FileHandle.standardError.write(Data("usage: IndexImportStaller INDEX FILE NAME CLIENT-STATE N\n".utf8))
    exit(64)
}
do {
    let index = try LocalIndex(path: arguments[1])
    _ = try index.importFile(arguments[2], index: arguments[3], clientState: Array(arguments[4].utf8)) { records in
        guard records == stallAfter else { return }
        FileHandle.standardError.write(Data("stalled after \(records) records\n".utf8))
        while true { sleep(60) }
    }
} catch {
    FileHandle.standardError.write(Data("IndexImportStaller: \(error)\n".utf8))
    exit(1)
}
