// First: before any module of the shared packages builds a zod schema.
import '@shortlinks/ui/theme.css';
import './dashboard.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { peoplePage } from './people/people-pages.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(<StrictMode>{peoplePage(window.location.pathname) ?? <App />}</StrictMode>);
