#!/usr/bin/env bash
# usage: scaffold.sh <kind app|lib> <name> <scope> <type>
set -e
kind=$1; name=$2; scope=$3; type=$4
dir=$( [ "$kind" = app ] && echo apps/$name || echo libs/$name )
mkdir -p $dir/src $dir/test
typecheck='"typecheck": { "executor": "nx:run-commands", "options": { "command": "tsc -p '$dir'/tsconfig.json --noEmit" } }'
if [ "$kind" = app ]; then
  targets="$typecheck"',
    "build": { "executor": "nx:run-commands", "dependsOn": ["typecheck"], "options": { "command": "node tools/build-app.mjs '$name'" }, "outputs": ["{workspaceRoot}/dist/apps/'$name'"] }'
else
  targets="$typecheck"
fi
cat > $dir/project.json <<J
{
  "name": "$name",
  "\$schema": "../../node_modules/nx/schemas/project-schema.json",
  "sourceRoot": "$dir/src",
  "projectType": "$( [ "$kind" = app ] && echo application || echo library )",
  "tags": ["scope:$scope", "type:$type"],
  "targets": {
    $targets
  }
}
J
cat > $dir/tsconfig.json <<J
{
  "extends": "../../tsconfig.base.json",
  "compilerOptions": { "types": ["node", "jest"], "noEmit": true },
  "include": ["src/**/*.ts", "test/**/*.ts"]
}
J
cat > $dir/jest.config.cjs <<J
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: '$name',
  rootDir: __dirname,
};
J
echo "export { default } from '../../eslint.config.mjs';" > $dir/eslint.config.mjs
