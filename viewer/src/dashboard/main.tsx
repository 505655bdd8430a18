import { render } from 'preact'
import { App } from './app'
import './dashboard.css'

render(<App />, document.getElementById('app') as HTMLElement)
