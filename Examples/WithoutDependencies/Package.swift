// swift-tools-version: 6.1
// An app's package that adopts the toolkit without swift-dependencies: the model takes its
// task provider in `init`, and the tests use the toolkit's traits. CI builds and tests it, so
// it is also the proof that such an adopter builds neither swift-dependencies nor the app.
import PackageDescription

let package = Package(
  name: "Uploads",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [
    // An app would write: .package(url: "https://github.com/OWNER/numberfact", from: "0.1.0",
    //   traits: []). Here, the checkout this example sits in, which SwiftPM names by its
    //   folder: clone it as `numberfact`, as `git clone` names it.
    .package(path: "../..", traits: [])
  ],
  targets: [
    .target(
      name: "Uploads",
      dependencies: [.product(name: "TaskProviding", package: "numberfact")]
    ),
    .testTarget(
      name: "UploadsTests",
      dependencies: [
        "Uploads",
        .product(name: "TaskProvidingTesting", package: "numberfact"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
