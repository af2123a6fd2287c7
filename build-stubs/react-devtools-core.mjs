// Stand-in for Ink's optional devtools peer dependency, which joinstep never enables.
export default { initialize() {}, connectToDevTools() {} };
export function initialize() {}
export function connectToDevTools() {}
