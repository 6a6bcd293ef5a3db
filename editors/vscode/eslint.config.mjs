// ESLint: the recommended rules of ESLint and typescript-eslint.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
	{ ignores: ["out/", "dist/", "node_modules/"] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		// The fake vscode and the test peers handle loosely typed messages.
		files: ["test/**/*.ts"],
		rules: {
			"@typescript-eslint/no-explicit-any": "off",
			"@typescript-eslint/no-require-imports": "off",
		},
	},
	{
		rules: {
			"@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
		},
	},
);
