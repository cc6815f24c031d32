import Foundation
import Hummingbird

extension FolderServer {
    /// The file in `root` that answers `url` (a URL of the server's own origin): its path
    /// decoded and confined as a request's is, a folder's `index.html` for a path ending in `/`;
    /// nil when no regular file answers it (a 404, a redirect to the folder's `/`). Reports use it
    /// to name the file a finding is in.
    public static func file(answering url: String, in root: String) -> String? {
        guard let components = URLComponents(string: url),
            let path = FolderFilesMiddleware<BasicRequestContext>.confinedPath(
                components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
        else { return nil }
        let relative = (path.hasSuffix("/") ? path + "index.html" : path).drop { $0 == "/" }
        let file = (root as NSString).appendingPathComponent(String(relative))
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue else {
            return nil
        }
        return file
    }
}
