import { CalculatorForm, type CalculatorFormProps } from '#app/components/calculator/calculator-form.tsx'
import { hydrateIsland } from './hydrate-island.tsx'

// The calculator's island (/calculator): its figures follow what the visitor types.
hydrateIsland<CalculatorFormProps>('calculator', (props) => <CalculatorForm {...props} />)
